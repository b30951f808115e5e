"""How Great Wall games end: rounds played and round-limit safeguard hits, per bot and player count.

Every seat is played by the same built-in bot (``random``, ``greedy``, ``ismcts``
with a fixed iteration budget, so that a run can be repeated exactly). Game
``i`` uses engine seed ``i`` and gives seat ``p`` the bot seed ``31 * i + p``.
For each game: the full rounds played (the engine's ``round`` at the end), the
round in which the end was announced, and what announced it: a draw that left
the wall supply and a passive chip supply empty at once (``wall+chips``), two
passive chip supplies (``chips+chips``), or the 60-round safeguard.

Run ``python -m benchmarks.greatwall_endings`` (the figures of the Great Wall
README); ``--ismcts-cpu-seconds`` bounds the ismcts games by CPU time per
player count instead of ``--ismcts-games``; ``--quick`` is a smoke run. Results
are printed as a table and written as JSON to var/bench/.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from games.engines.greatwall import ENGINE
from games.engines.greatwall.constants import ROUND_LIMIT
from games.engines.greatwall.state import State


def _trigger(s: State) -> str:
    """What announced the end, judged on the state right after the announcement."""
    walls = s.wall_supply == 0
    chips = sum(1 for p in s.passive if not any(p))
    if walls and chips:
        return "wall+chips"
    if chips >= 2:
        return "chips+chips"
    return "safeguard"


def play(bot: str, players: int, seed: int, params: dict | None = None) -> dict:
    """One game with every seat played by `bot`; how it ended."""
    bots = [ENGINE.make_bot(bot, seed=31 * seed + p, **(params or {})) for p in range(players)]
    s = ENGINE.new_game(players=players, seed=seed)
    decisions = 0
    trigger = announced_round = None
    while not s.over:
        seat = s.seat
        ENGINE.apply(s, bots[seat].choose(s, seat))
        decisions += 1
        if trigger is None and s.announced >= 0:
            trigger, announced_round = _trigger(s), s.round
    return {
        "bot": bot,
        "players": players,
        "seed": seed,
        "rounds": s.round,
        "announced_round": announced_round,
        "trigger": trigger,
        "decisions": decisions,
    }


def run(
    bot: str,
    players: int,
    *,
    games: int | None = None,
    cpu_seconds: float | None = None,
    params: dict | None = None,
    first_seed: int = 0,
    on_game: Callable[[dict], None] | None = None,
) -> list[dict]:
    """`games` games, or as many as start within `cpu_seconds` of CPU time."""
    out: list[dict] = []
    started = time.process_time()
    seed = first_seed
    while (games is None or len(out) < games) and (
        cpu_seconds is None or time.process_time() - started < cpu_seconds
    ):
        out.append(play(bot, players, seed, params))
        if on_game is not None:
            on_game(out[-1])
        seed += 1
    return out


def summary(results: Sequence[dict]) -> dict:
    rounds = [r["rounds"] for r in results]
    triggers = [r["trigger"] for r in results]
    return {
        "games": len(results),
        "rounds_min": min(rounds),
        "rounds_median": statistics.median(rounds),
        "rounds_max": max(rounds),
        "safeguard": triggers.count("safeguard"),
        "wall+chips": triggers.count("wall+chips"),
        "chips+chips": triggers.count("chips+chips"),
        "decisions_mean": round(statistics.fmean(r["decisions"] for r in results), 1),
    }


def format_table(rows: Sequence[dict]) -> str:
    lines = [
        "| bot | players | games | rounds min / median / max | safeguard (60 rounds) "
        "| ended by wall+chips / chips+chips | decisions/game |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['label']} | {r['players']} | {r['games']} "
            f"| {r['rounds_min']} / {r['rounds_median']:g} / {r['rounds_max']} "
            f"| {r['safeguard']} | {r['wall+chips']} / {r['chips+chips']} "
            f"| {r['decisions_mean']:g} |"
        )
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--random-games", type=int, default=300)
    p.add_argument("--greedy-games", type=int, default=100)
    p.add_argument("--ismcts-games", type=int, default=None, help="per player count")
    p.add_argument(
        "--ismcts-cpu-seconds",
        type=float,
        default=300.0,
        help="CPU seconds per player count for ismcts games (when --ismcts-games is not set)",
    )
    p.add_argument("--ismcts-iterations", type=int, default=200)
    p.add_argument("--bots", default="random,greedy,ismcts")
    p.add_argument("--players", default="2,3,4")
    p.add_argument("--quick", action="store_true", help="a smoke run: a few games each")
    p.add_argument(
        "--from-log",
        type=Path,
        nargs="+",
        default=None,
        help="play nothing: print the table of the games in these --log files",
    )
    p.add_argument("--out", type=Path, default=Path("var/bench"))
    p.add_argument(
        "--log", type=Path, default=None, help="append every game to this file as a JSON line"
    )
    args = p.parse_args(argv)
    if args.quick:
        args.random_games, args.greedy_games, args.ismcts_games = 10, 1, 1
        args.ismcts_iterations = 10
    return args


def table_from_logs(paths: Sequence[Path]) -> list[dict]:
    """Rows for the games logged with --log (e.g. by runs cut short), by bot and player count."""
    groups: dict[tuple[str, int], dict[int, dict]] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                game = json.loads(line)
                # a seed played twice (two runs' logs) is the same game: count it once
                groups.setdefault((game["bot"], game["players"]), {})[game["seed"]] = game
    rows = []
    for (bot, n), by_seed in sorted(groups.items()):
        rows.append({"label": bot, "bot": bot, "players": n, **summary(list(by_seed.values()))})
    return rows


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> list[dict]:
    args = parse_args(argv)
    if args.from_log:
        rows = table_from_logs(args.from_log)
        out.write(format_table(rows) + "\n")
        return rows
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    players = [int(x) for x in args.players.split(",")]
    rows, games = [], []

    def log(game: dict) -> None:
        if args.log is not None:
            with args.log.open("a") as f:
                f.write(json.dumps(game) + "\n")

    for bot in bots:
        for n in players:
            params, label = {}, bot
            kw: dict = {}
            if bot == "random":
                kw["games"] = args.random_games
            elif bot == "greedy":
                kw["games"] = args.greedy_games
            else:
                params = {"iterations": args.ismcts_iterations}
                label = f"{bot} ({args.ismcts_iterations} iterations)"
                if args.ismcts_games is not None:
                    kw["games"] = args.ismcts_games
                else:
                    kw["cpu_seconds"] = args.ismcts_cpu_seconds
            t0 = time.process_time()
            results = run(bot, n, params=params, on_game=log, **kw)
            cpu = time.process_time() - t0
            row = {"label": label, "bot": bot, "players": n, "cpu_s": round(cpu, 1)}
            row.update(summary(results))
            rows.append(row)
            games.extend(results)
            out.write(
                f"{label}, {n} players: {row['games']} games, {cpu:.0f} s CPU, rounds "
                f"{row['rounds_min']}-{row['rounds_max']} (median {row['rounds_median']:g}), "
                f"safeguard {row['safeguard']}\n"
            )
            out.flush()
    out.write("\n" + format_table(rows) + "\n")
    out.write(f"(safeguard: the end announced after ROUND_LIMIT = {ROUND_LIMIT} full rounds)\n")
    args.out.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    path = args.out / f"greatwall-endings{'-quick' if args.quick else ''}-{stamp}.json"
    path.write_text(
        json.dumps(
            {"args": {k: str(v) for k, v in vars(args).items()}, "rows": rows, "games": games},
            indent=1,
        )
    )
    out.write(f"written to {path}\n")
    return rows


if __name__ == "__main__":
    main()
