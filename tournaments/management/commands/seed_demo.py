"""Creates the demo data `make run` shows: an admin account, bots, a live bot tournament
and a member whose sign-up and invitation leave mails in var/mail/."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from games import services
from games.engines.registry import ENGINES
from games.models import Match, Player
from tournaments import services as tournament_services
from tournaments.models import Tournament

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


DEMO_TOURNAMENT = "Demo Swiss (bots)"


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
        self._demo_tournament()
        self._demo_matches()
        self._demo_mail()
        self.stdout.write(self.style.SUCCESS("demo data ready"))

    def _demo_mail(self) -> None:
        """A member, Lena (lena/lena, Czech), whose sign-up mails her a verification link
        and whose invitation to admin mails him a notice: what the site sends, in
        var/mail/ and the admin's outbox (sent by the worker `make run` starts)."""
        from django.utils import timezone

        from core import accounts

        if Player.objects.filter(name="lena").exists():
            return
        admin = get_user_model().objects.get(username="admin")
        admin.player.email_verified_at = admin.player.email_verified_at or timezone.now()
        admin.player.language = admin.player.language or "en"
        admin.player.save(update_fields=["email_verified_at", "language"])
        lena = services.register_human(username="lena", password="lena", email="lena@example.com")
        accounts.start_account(lena, language="cs")
        services.create_match(game="yspahan", players=[lena, admin.player], created_by=lena.user)
        self.stdout.write("created member lena (lena/lena); she invited admin to a match")

    def _demo_matches(self) -> None:
        """One rated bot match of every game, so each game's pages and ladder show play."""
        bots = [Player.objects.get(name=name) for name, *_ in DEMO_BOTS]  # four different bots
        for slug in sorted(ENGINES):
            if Match.objects.filter(game=slug).exists():
                continue
            engine = ENGINES[slug]
            players = bots[: min(len(bots), engine.max_players)]
            match = services.create_match(game=slug, players=players, rated=True)
            self.stdout.write(f"started a {engine.title} demo match (#{match.pk})")

    def _demo_tournament(self) -> None:
        """A live Swiss of bots on 4-player Silk Road tables, so the pages show play at once."""
        if Tournament.objects.filter(name=DEMO_TOURNAMENT).exists():
            return
        t = tournament_services.create_tournament(
            name=DEMO_TOURNAMENT,
            game="silkroad",
            format="swiss",
            config={"table_size": 4, "rounds": 3},
            seed=1,
        )
        for i in range(8):
            bot = ["random", "greedy"][i % 2]
            name = f"demo-{bot}-{i + 1}"
            player = Player.objects.filter(name=name).first() or services.create_engine_bot(
                name=name, bot_name=bot
            )
            tournament_services.add_entry(tournament=t, player=player)
        tournament_services.start_tournament(tournament=t)
        self.stdout.write(f"started tournament {t.name!r}")
