"""Creates the demo data `make run` shows: an admin account and a few bots."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from games import services
from games.models import Player

DEMO_BOTS = [
    ("random-rita", "random", {}, "Plays any legal move, uniformly at random."),
    ("greedy-gus", "greedy", {}, "Takes the move that looks best one step ahead."),
    (
        "mcts-mia",
        "ismcts",
        {"iterations": 300},
        "Information-set Monte-Carlo tree search, 300 iterations.",
    ),
    (
        "mcts-max",
        "ismcts",
        {"time_s": 1.0},
        "Information-set Monte-Carlo tree search, one second a move.",
    ),
]


class Command(BaseCommand):
    help = "Create the demo admin (admin/admin) and built-in bot players; safe to run again."

    def add_arguments(self, parser):
        parser.add_argument("--admin-password", default="admin")

    def handle(self, *args, admin_password, **options):
        User = get_user_model()
        if not User.objects.filter(username="admin").exists():
            User.objects.create_superuser("admin", "admin@example.com", admin_password)
            self.stdout.write("created superuser admin")
        for name, bot, params, description in DEMO_BOTS:
            if not Player.objects.filter(name=name).exists():
                services.create_engine_bot(
                    name=name, bot_name=bot, params=params, description=description
                )
                self.stdout.write(f"created bot {name} ({bot})")
        self.stdout.write(self.style.SUCCESS("demo data ready"))
