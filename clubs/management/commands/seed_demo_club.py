"""The demo club `make run` shows (after seed_demo): admin its owner, lena a member, the
demo Swiss an event of its season, so the club page, its ladder and the season standings
show something. Safe to run again."""

import datetime

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from clubs.services import events, membership, seasons
from tournaments.models import Tournament

DEMO_TOURNAMENT = "Demo Swiss (bots)"  # tournaments' seed_demo makes it


class Command(BaseCommand):
    help = "Create the demo club (/clubs/demo-club/) with a member and a season."

    def handle(self, *args, **options):
        if Club.objects.filter(slug="demo-club").exists():
            return
        users = get_user_model().objects
        admin, lena = users.filter(username="admin").first(), users.filter(username="lena").first()
        swiss = Tournament.objects.filter(name=DEMO_TOURNAMENT).first()
        if admin is None or lena is None or swiss is None:
            raise CommandError("Run `manage.py seed_demo` first.")
        club = membership.found_club(by=admin, name="Demo Club", slug="demo-club", city="Praha",
                                     languages=["cs", "en"],
                                     description="Thursday evenings: Silk Road and Yspahan.")  # fmt: skip
        asked = membership.ask_to_join(club=club, user=lena)
        membership.accept_request(membership=asked, by=admin)
        events.attach(swiss, club)
        today = datetime.date.today()
        season = seasons.create_season(
            club=club, by=admin, name=str(today.year), starts_on=today.replace(month=1, day=1),
            ends_on=today.replace(month=12, day=31), games=["silkroad"], rule="sum",
        )  # fmt: skip
        seasons.attach_event(season=season, tournament=swiss, by=admin)
        self.stdout.write(f"created the club {club.name} (/clubs/{club.slug}/) with a season")
