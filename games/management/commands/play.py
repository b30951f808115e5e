"""``manage.py play SLUG --players N --bots ismcts,greedy,random --seed S``: a bot game in the terminal."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from games.engines.base import InvalidOptions
from games.engines.cli import play_game


class Command(BaseCommand):
    help = "Play a game between built-in bots in the terminal and print the log and the outcome."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the game, e.g. silkroad")
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument(
            "--bots",
            default="random",
            help="comma-separated bot names, cycled over the seats (random, greedy, ismcts)",
        )
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--options", default=None, help="variant options as a JSON object")
        budget = parser.add_mutually_exclusive_group()
        budget.add_argument(
            "--iterations", type=int, default=None, help="ismcts iterations per decision"
        )
        budget.add_argument("--time", type=float, default=None, help="ismcts seconds per decision")
        parser.add_argument("--quiet", action="store_true", help="print only the outcome")

    def handle(self, *args, **opts):
        from games.engines.registry import UnknownGame, get_engine

        try:
            engine = get_engine(opts["slug"])
        except UnknownGame as exc:
            raise CommandError(exc.args[0]) from None
        options = None
        if opts["options"]:
            try:
                options = json.loads(opts["options"])
            except json.JSONDecodeError as exc:
                raise CommandError(f"--options is not valid JSON: {exc}") from None
            if not isinstance(options, dict):
                raise CommandError("--options must be a JSON object")
        try:
            play_game(
                engine,
                opts["players"],
                opts["bots"].split(","),
                opts["seed"],
                options,
                self.stdout,
                iterations=opts["iterations"],
                time_s=opts["time"],
                quiet=opts["quiet"],
            )
        except (InvalidOptions, ValueError) as exc:
            raise CommandError(str(exc)) from None
