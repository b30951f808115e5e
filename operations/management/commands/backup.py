"""`manage.py backup [--dir DIR]` (`make backup`): the database to a timestamped file
under VAR_DIR/backups/ (operations/backup.py); prints its path."""

from django.core.management.base import BaseCommand, CommandError

from operations.backup import BackupError, backup


class Command(BaseCommand):
    help = "Back up the database (SQLite or PostgreSQL, from DATABASE_URL) to VAR_DIR/backups/."

    def add_arguments(self, parser):
        parser.add_argument("--dir", help="where to write the backup (default VAR_DIR/backups)")

    def handle(self, *args, dir=None, **options):
        try:
            path = backup(dir)
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        size = path.stat().st_size
        self.stdout.write(f"backed up to {path} ({size / 1024:.0f} KiB)")
