"""`manage.py restore FILE` (`make restore FILE=…`): replace the database's contents by a
backup's (operations/backup.py). Asks nothing; refuses a missing or wrong-kind file."""

from django.core.management.base import BaseCommand, CommandError

from operations.backup import BackupError, restore


class Command(BaseCommand):
    help = (
        "Restore the database (SQLite or PostgreSQL, from DATABASE_URL) from a file made by "
        "`manage.py backup`. Stop web, workers and beat first."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", default="", help="the backup file")

    def handle(self, *args, file="", **options):
        try:
            path = restore(file)
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"restored {path}; run `manage.py migrate` if the backup is older "
                          "than the code")  # fmt: skip
