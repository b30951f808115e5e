"""Playing a bot game in the terminal: the logic behind ``manage.py play``.

Kept free of Django so that it can be tested and reused (benchmarks, scripts)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from games.engines.base import Action, Engine
from games.engines.bots import BOT_NAMES
from games.engines.bots.common import check_float, check_int


@dataclass
class PlayedGame:
    state: Any
    actions: list[Action]
    seats: list[str]  # the bot name at each seat
    outcome: dict
    seconds: list[float] = field(default_factory=list)  # thinking time per seat


def seat_bots(bots: Sequence[str], players: int) -> list[str]:
    """The bot name for each seat: `bots` cycled if shorter than `players`, exactly `players` otherwise."""
    names = [b.strip() for b in bots if b.strip()]
    if not names:
        raise ValueError("name at least one bot")
    if len(names) > players:
        raise ValueError(f"{len(names)} bots named for {players} players")
    unknown = [b for b in names if b not in BOT_NAMES]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r}; known: {', '.join(BOT_NAMES)}")
    return [names[i % len(names)] for i in range(players)]


def bot_seed(seed: int, seat: int) -> int:
    """Each seat's bot gets its own seed, derived from the game seed."""
    return seed * 1009 + 17 * (seat + 1)


def play_game(
    engine: Engine,
    players: int,
    bots: Sequence[str],
    seed: int,
    options: dict | None = None,
    out: TextIO | None = None,
    *,
    iterations: int | None = None,
    time_s: float | None = None,
    quiet: bool = False,
    max_plies: int = 100_000,
) -> PlayedGame:
    """Play one game between bots and print a log (unless `quiet`) and the outcome to `out`.

    `iterations`/`time_s` are the ismcts budget; other bots ignore them. Each log line
    is described from the state before its action is applied."""
    engine.check_players(players)
    chosen = dict(options or {})  # what the caller set; the log leaves the defaults out
    options = engine.validate_options(options)
    names = seat_bots(bots, players)
    ismcts_params: dict[str, Any] = {}
    if iterations is not None:
        ismcts_params["iterations"] = check_int("iterations", iterations, minimum=1)
    if time_s is not None:
        ismcts_params["time_s"] = check_float("time_s", time_s, minimum=0.0, strict=True)
    seat_bot = [
        engine.make_bot(
            name, seed=bot_seed(seed, seat), **(ismcts_params if name == "ismcts" else {})
        )
        for seat, name in enumerate(names)
    ]

    def say(line: str) -> None:
        if out is not None:
            out.write(line + "\n")

    say(f"{engine.title} ({engine.slug}), {players} players, seed {seed}")
    if chosen:
        say(f"options: {json.dumps(chosen, sort_keys=True)}")
    for seat, name in enumerate(names):
        say(f"  seat {seat}: {name}")

    state = engine.new_game(players=players, seed=seed, options=options)
    actions: list[Action] = []
    seconds = [0.0] * players
    while not engine.is_over(state):
        if len(actions) >= max_plies:
            raise RuntimeError(f"the game did not end within {max_plies} decisions")
        seat = engine.to_act(state)
        started = time.perf_counter()
        action = seat_bot[seat].choose(state, seat)
        seconds[seat] += time.perf_counter() - started
        if not quiet:
            say(
                f"{len(actions) + 1:5d}  seat {seat} ({names[seat]}): {engine.describe(state, action)}"
            )
        actions.append(action)
        state = engine.apply(state, action)

    outcome = engine.outcome(state)
    say(f"game over after {len(actions)} decisions")
    say(format_outcome(outcome, names, seconds))
    return PlayedGame(state=state, actions=actions, seats=names, outcome=outcome, seconds=seconds)


def format_outcome(outcome: dict, names: Sequence[str], seconds: Sequence[float]) -> str:
    rows = ["rank  seat  bot       score   think s"]
    order = sorted(range(len(names)), key=lambda s: (outcome["ranks"][s], s))
    for s in order:
        rows.append(
            f"{outcome['ranks'][s]:>4}  {s:>4}  {names[s]:<8}  {outcome['scores'][s]!s:>5}  {seconds[s]:8.2f}"
        )
    return "\n".join(rows)
