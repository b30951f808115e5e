"""`manage.py vapid_keys`: a new VAPID key pair for Web Push, as lines for the environment
(.env). The public key is what browsers subscribe with; keep the private one secret.
Changing the pair strands the browsers subscribed with the old one until they allow
notices again."""

from django.core.management.base import BaseCommand

from notifications.push import new_vapid_keys


class Command(BaseCommand):
    help = "Prints a new VAPID key pair for Web Push (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY)."

    def add_arguments(self, parser):
        parser.add_argument("--subject", default="",
                            help="a mailto: address for the push services (VAPID_SUBJECT)")  # fmt: skip

    def handle(self, *args, subject: str = "", **options):
        public, private = new_vapid_keys()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
        if subject:
            self.stdout.write(f"VAPID_SUBJECT={subject}")
