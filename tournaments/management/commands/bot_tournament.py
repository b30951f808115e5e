"""Create and run a whole bot tournament through Celery, with a progress bar."""

import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from config.worker_process import celery_worker
from games import services as game_services
from tournaments import selectors, services
from tournaments.models import Table, TableStatus, Tournament, TournamentStatus

BOT_PARAMS = {"ismcts": {"iterations": 100}}


class Command(BaseCommand):
    help = "Run a tournament of built-in bots end to end through Celery and print the standings."

    def add_arguments(self, parser):
        parser.add_argument("--game", default="silkroad")
        parser.add_argument("--format", default="swiss")
        parser.add_argument("--entrants", type=int, default=16)
        parser.add_argument("--table-size", type=int, default=4)
        parser.add_argument("--rounds", type=int, default=None)
        parser.add_argument("--bots", default="random,greedy,ismcts")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--timeout", type=float, default=3600, help="Give up after this many seconds."
        )
        parser.add_argument("--no-worker", action="store_true",
                            help="Use the workers already running instead of starting one.")  # fmt: skip

    def handle(self, *args, **o):
        bots = [b.strip() for b in o["bots"].split(",") if b.strip()]
        config = {"table_size": o["table_size"]}
        if o["rounds"]:
            config["rounds"] = o["rounds"]
        t = services.create_tournament(
            name=f"Bot {o['format']} of {o['entrants']} ({o['game']})", game=o["game"], format=o["format"],
            config=config, seed=o["seed"], rated=True,
        )  # fmt: skip
        for i in range(o["entrants"]):
            name = bots[i % len(bots)]
            player = game_services.create_engine_bot(
                name=f"t{t.pk}-{name}-{i + 1}", bot_name=name, params=BOT_PARAMS.get(name, {})
            )
            services.add_entry(tournament=t, player=player)
        self.stdout.write(f"Tournament #{t.pk}: {t.name}")
        if o["no_worker"]:
            self._run(t, o["timeout"])
        else:
            with celery_worker(settings_module=settings.SETTINGS_MODULE, beat=True):
                self._run(t, o["timeout"])
        t.refresh_from_db()
        self._print_standings(t)

    def _run(self, t: Tournament, timeout: float) -> None:
        services.start_tournament(tournament=t)
        deadline = time.monotonic() + timeout
        while True:
            t.refresh_from_db()
            self._progress(t)
            if t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
                break
            if time.monotonic() > deadline:
                raise CommandError("the tournament did not finish in time")
            time.sleep(0.5)
        self.stdout.write("")

    def _progress(self, t: Tournament) -> None:
        p = selectors.progress(t)
        tables = Table.objects.filter(round__tournament=t, round__number=t.current_round)
        done = tables.filter(status=TableStatus.FINISHED).count()
        width = 30
        filled = int(width * p["percent"] / 100)
        total = p["rounds_total"] or "?"
        line = f"\r[{'#' * filled}{'.' * (width - filled)}] {p['percent']:3d}%  round {t.current_round}/{total}  tables {done}/{tables.count()}"
        self.stdout.write(line, ending="")
        sys.stdout.flush()

    def _print_standings(self, t: Tournament) -> None:
        rows = selectors.standings(t)
        names = list(rows[0]["tiebreaks"]) if rows else []
        self.stdout.write(
            f"{'#':>3} {'entrant':<24} {'pts':>6} " + " ".join(f"{n[:10]:>10}" for n in names)
        )
        for r in rows:
            tb = " ".join(f"{r['tiebreaks'][n]:>10.2f}" for n in names)
            self.stdout.write(f"{r['rank']:>3} {r['player']:<24} {r['points']:>6.1f} {tb}")
