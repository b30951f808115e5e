"""``manage.py create_api_token USERNAME [--name NAME]``: a new API token, its key printed once.

The replacement for DRF's ``drf_create_token`` (its tokens were stored in plain text). A bot
program's account holds one token: a new one replaces it (core/tokens.py).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from core import tokens


class Command(BaseCommand):
    help = "Make an API token for a user and print its key (shown once; only a hash is kept)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--name", default="", help="what the token is for, e.g. 'laptop'")

    def handle(self, *args, username, name, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user {username!r}.")
        try:
            token, key = tokens.issue(user, name=name, replace=tokens.one_token_only(user))
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        self.stdout.write(key)
        self.stderr.write(f"Expires {token.expires_at:%Y-%m-%d}.")
