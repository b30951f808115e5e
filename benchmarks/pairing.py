"""Swiss pairing benchmark: time per round at 1,000 and 10,000 entrants, and quality.

Run ``python -m benchmarks.pairing [--quick]``. For two-seat and four-seat tables
and each field size, a Swiss tournament is played for a few rounds with random
results (some ties and forfeits) so that score groups and rematch constraints
exist, then the next round is generated and timed: ``next_round`` end to end
(standings from scratch + pairing, what the platform pays; wall-clock median and
the process CPU time, which is what to read on a busy machine), and the standings
alone. Target (docs/architecture.md, Tournaments): 1,000 entrants in under 1 s; ``x target``
is 1 s / time (>= 1.00 meets it). Results are printed and written as JSON to
var/bench/pairing.json (``--out`` to change).

Quality (skip with ``--no-quality``): four-seat Swiss at 64 entrants, 30 rounds
per setting, with and without the exact fallback: rounds with repeat meetings and
how many of them had a repeat-free grouping (an exact check); one hard four-seat
round at 1,000 entrants (fast method and fallback: repeats, time); two-seat events
of 10-20 players: breaks of the absolute colour rules per 100 pairings.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from benchmarks.common import write_json
from tournaments.formats import (
    Config,
    Entrant,
    FormatError,
    Round,
    Swiss,
    Table,
    TableResult,
    compute_standings,
)
from tournaments.formats.common import History, pair
from tournaments.formats.regroup import conflict_free_grouping
from tournaments.formats.swiss import group_tables

TARGET_SECONDS_1000 = 1.0
DEFAULT_SIZES = (1_000, 10_000)
DEFAULT_TABLES = (2, 4)


def _result(seats: int, rng: random.Random) -> TableResult:
    scores = [
        rng.randrange(seats + 1) if rng.random() < 0.1 else rng.random() for _ in range(seats)
    ]
    ranks = tuple(1 + sum(1 for o in scores if o > s) for s in scores)
    if rng.random() < 0.02:  # a forfeit: last place
        loser = rng.randrange(seats)
        flags = tuple(i == loser for i in range(seats))
        others = [i for i in range(seats) if i != loser]
        ranks = list(ranks)
        ranks[loser] = seats
        for i in others:
            ranks[i] = 1 + sum(1 for o in others if scores[o] > scores[i])
        return TableResult(tuple(ranks), flags)
    return TableResult(ranks)


def bench_swiss(
    entrants: int, table_size: int, *, warmup_rounds: int, repeat: int, seed: int = 0
) -> dict:
    """Play ``warmup_rounds`` random rounds, then time the next one ``repeat`` times."""
    rng = random.Random(seed * 1_000_003 + entrants * 10 + table_size)
    field = [Entrant(i, rating=round(rng.gauss(1500, 200), 1)) for i in range(1, entrants + 1)]
    config = Config(table_size=table_size, rounds=warmup_rounds + 1)
    fmt = Swiss(config)
    played: list[Round] = []
    for _ in range(warmup_rounds):
        rnd = fmt.next_round(field, played)
        assert rnd is not None
        tables = tuple(Table(t.seats, _result(len(t.seats), rng)) for t in rnd.tables)
        played.append(Round(rnd.number, tables, rnd.byes, rnd.label))
    times, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        rnd = fmt.next_round(field, played)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    assert rnd is not None
    start = time.perf_counter()
    compute_standings(field, played, config)
    standings_s = time.perf_counter() - start
    groups = len({row.points for row in compute_standings(field, played, config)})
    rematches = repeat_pairs(rnd, History.of(played))
    row = {
        "entrants": entrants,
        "table_size": table_size,
        "warmup_rounds": warmup_rounds,
        "score_groups": groups,
        "tables": len(rnd.tables),
        "byes": len(rnd.byes),
        "rematches": rematches,
        "next_round_s": statistics.median(times),
        "next_round_min_s": min(times),
        "next_round_cpu_s": statistics.median(cpu),
        "standings_s": standings_s,
        "repeat": repeat,
    }
    if entrants == 1_000:
        row["x_target"] = TARGET_SECONDS_1000 / row["next_round_s"]
    return row


def _finish(rnd: Round, rng: random.Random) -> Round:
    tables = tuple(Table(t.seats, _result(len(t.seats), rng)) for t in rnd.tables)
    return Round(rnd.number, tables, rnd.byes, rnd.label)


def repeat_pairs(rnd: Round, history: History) -> int:
    """Pairs at one table in ``rnd`` that already met before it."""
    return sum(
        1
        for t in rnd.tables
        for i, a in enumerate(t.seats)
        for b in t.seats[i + 1 :]
        if history.met.get(pair(a, b))
    )


def repeat_free_exists(rnd: Round, history: History, budget: int) -> bool | None:
    """Whether the players seated in ``rnd`` fit tables of the same sizes with no pair
    that met before (None: the search ran out of ``budget`` steps without knowing)."""
    players = [e for t in rnd.tables for e in t.seats]
    conflicts: dict[int, set[int]] = {}
    for a, b in history.met:
        conflicts.setdefault(a, set()).add(b)
        conflicts.setdefault(b, set()).add(a)
    for jitter in (0, 4, 16):  # restarts in other orders (the search's tail is heavy)
        found = conflict_free_grouping(
            players,
            [len(t.seats) for t in rnd.tables],
            conflicts,
            budget=budget,
            improve=False,
            jitter=jitter,
        )
        if found.tables is not None:
            return True
        if found.complete:
            return False
    return None


def bench_repeats(
    entrants: int = 64,
    table_size: int = 4,
    *,
    rounds: int = 5,
    seeds: Sequence[int] = (0, 1, 2, 3, 4, 5),
    check_budget: int = 3_000_000,
    search_budget: int | None = None,
) -> dict:
    """Swiss events of ``rounds`` rounds: in how many rounds the pairing has repeat
    meetings, and in how many of those a repeat-free grouping existed (exact check with
    restarts, ``check_budget`` steps each: "unknown" when it neither finds one nor
    proves there is none). ``search_budget``: the format's fallback budget (0: the
    fast method alone, as before the fallback; None: the default)."""
    repeated = avoidable = unknown = total = 0
    times = []
    for seed in seeds:
        rng = random.Random(seed * 7_919 + entrants)
        field = [Entrant(i, rating=round(rng.gauss(1500, 200), 1)) for i in range(1, entrants + 1)]
        fmt = Swiss(Config(table_size=table_size, rounds=rounds))
        if search_budget is not None:
            fmt.search_budget = search_budget
        played: list[Round] = []
        for _ in range(rounds):
            start = time.process_time()
            rnd = fmt.next_round(field, played)
            times.append(time.process_time() - start)
            assert rnd is not None
            history = History.of(played)
            total += 1
            if repeat_pairs(rnd, history):
                repeated += 1
                exists = repeat_free_exists(rnd, history, check_budget)
                avoidable += exists is True
                unknown += exists is None
            played.append(_finish(rnd, rng))
    return {
        "entrants": entrants,
        "table_size": table_size,
        "event_rounds": rounds,
        "seeds": len(seeds),
        "search_budget": Swiss.search_budget if search_budget is None else search_budget,
        "rounds": total,
        "rounds_with_repeats": repeated,
        "avoidable_repeat_rounds": avoidable,
        "unknown": unknown,
        "round_cpu_s_median": statistics.median(times),
        "round_cpu_s_max": max(times),
    }


def colour_violations(seats: Sequence[int]) -> bool:
    """Whether a two-seat history (0 = first seat) breaks the absolute colour rules:
    seat difference over 2, or the same seat three times in a row."""
    diff = seats.count(0) - seats.count(1)
    return abs(diff) > 2 or (len(seats) >= 3 and seats[-1] == seats[-2] == seats[-3])


def bench_colours(
    sizes: Sequence[int] = (10, 12, 14, 16, 18, 20),
    *,
    rounds: int = 7,
    seeds: Sequence[int] = tuple(range(10)),
    colours_first: bool = False,
) -> dict:
    """Two-seat Swiss events: players breaking the absolute colour rules per 100 pairings
    (a player counts in every round whose game leaves it in breach), and the pairings
    of players on different points per 100 (the price in score quality).
    ``colours_first``: ``Swiss.colours_first`` (the rules before score differences)."""
    pairings = violations = unequal = 0
    for n in sizes:
        for seed in seeds:
            rng = random.Random(seed * 104_729 + n)
            field = [Entrant(i, rating=round(rng.gauss(1500, 200), 1)) for i in range(1, n + 1)]
            config = Config(table_size=2, rounds=rounds)
            fmt = Swiss(config)
            fmt.colours_first = colours_first
            played: list[Round] = []
            for _ in range(rounds):
                try:
                    rnd = fmt.next_round(field, played)
                except FormatError:
                    break
                assert rnd is not None
                points = {r.entrant: r.points for r in compute_standings(field, played, config)}
                unequal += sum(points[t.seats[0]] != points[t.seats[1]] for t in rnd.tables)
                played.append(_finish(rnd, rng))
                history = History.of(played)
                for t in rnd.tables:
                    pairings += 1
                    violations += sum(colour_violations(history.two_seat[e]) for e in t.seats)
    return {
        "sizes": list(sizes),
        "rounds": rounds,
        "seeds": len(seeds),
        "colours_first": colours_first,
        "pairings": pairings,
        "violations": violations,
        "per_100_pairings": 100 * violations / max(1, pairings),
        "unequal_points_per_100": 100 * unequal / max(1, pairings),
    }


def bench_hard_round(
    entrants: int = 1_000, rounds: int = 40, block: int = 48, seed: int = 0
) -> dict:
    """One four-seat round after a hard history: everybody met the players near it in
    the standings again and again (``rounds`` rounds of tables drawn inside blocks of
    ``block`` neighbours), all on equal points. The fast method leaves repeats here;
    the time is that of the grouping alone, fast method and with the fallback."""
    rng = random.Random(seed)
    order = list(range(entrants))
    points = dict.fromkeys(order, 0.0)
    history = History()
    for number in range(rounds):
        perm = order[number:] + order[:number] if number < 3 else list(order)
        if number >= 3:
            for i in range(0, entrants, block):
                part = perm[i : i + block]
                rng.shuffle(part)
                perm[i : i + block] = part
        for i in range(0, entrants, 4):
            table = perm[i : i + 4]
            for j, a in enumerate(table):
                for b in table[j + 1 :]:
                    history.met[pair(a, b)] += 1
    row: dict = {"entrants": entrants, "history_rounds": rounds, "block": block}
    for label, budget in (("fast", 0), ("fallback", Swiss.search_budget)):
        start = time.process_time()
        tables, _ = group_tables(order, points, history, frozenset(), 4, 3, search_budget=budget)
        row[f"{label}_cpu_s"] = time.process_time() - start
        row[f"{label}_repeats"] = sum(
            1
            for t in tables
            for j, a in enumerate(t)
            for b in t[j + 1 :]
            if history.met.get(pair(a, b))
        )
        row[f"{label}_spread"] = sum(max(t) - min(t) for t in tables)
    return row


def quality(quick: bool) -> dict:
    """The pairing-quality figures: four-seat repeats at 64 entrants (30 rounds per
    setting), one hard round at 1,000, two-seat colour breaks in fields of 10-20."""
    settings = (
        ((10, (0, 1, 2)),) if quick else ((5, tuple(range(6))), (10, (0, 1, 2)), (15, (0, 1)))
    )
    repeats = []
    for rounds, seeds in settings:
        for budget in (0, None):
            print(f"four-seat repeats: {rounds} rounds, budget {budget}...", file=sys.stderr)
            repeats.append(bench_repeats(64, 4, rounds=rounds, seeds=seeds, search_budget=budget))
    print("a hard round at 1,000 entrants...", file=sys.stderr)
    hard = bench_hard_round(rounds=20 if quick else 40)
    colours = [
        bench_colours(rounds=rounds, seeds=tuple(range(3 if quick else 10)), colours_first=first)
        for rounds in ((7,) if quick else (7, 9))
        for first in (False, True)
    ]
    return {"repeats": repeats, "hard_round": hard, "colours": colours}


def format_quality(q: dict) -> str:
    lines = [
        "Four-seat Swiss, 64 entrants: rounds with repeat meetings (goal: none avoidable)",
        f"{'event rounds':>12} {'budget':>7} {'rounds':>6} {'with repeats':>12} "
        f"{'avoidable':>9} {'unknown':>7} {'cpu s median':>12} {'cpu s max':>9}",
    ]
    for r in q["repeats"]:
        lines.append(
            f"{r['event_rounds']:>12} {r['search_budget']:>7} {r['rounds']:>6} "
            f"{r['rounds_with_repeats']:>12} {r['avoidable_repeat_rounds']:>9} {r['unknown']:>7} "
            f"{r['round_cpu_s_median']:>12.3f} {r['round_cpu_s_max']:>9.3f}"
        )
    h = q["hard_round"]
    lines += [
        f"A hard round at {h['entrants']:,} entrants ({h['history_rounds']} earlier rounds among "
        f"blocks of {h['block']}): fast method {h['fast_repeats']} repeat pairs in "
        f"{h['fast_cpu_s']:.3f} s; with the fallback {h['fallback_repeats']} in "
        f"{h['fallback_cpu_s']:.3f} s (cpu, grouping only; goal <= 1 s)",
        "Two-seat Swiss, fields of 10-20: players breaking the absolute colour rules "
        "(difference > 2, three in a row)",
    ]
    for c in q["colours"]:
        mode = "rules first" if c["colours_first"] else "score first"
        lines.append(
            f"  {c['rounds']} rounds x {c['seeds']} seeds x sizes {c['sizes']}, {mode}: "
            f"{c['violations']} in {c['pairings']} pairings = "
            f"{c['per_100_pairings']:.2f} per 100 pairings "
            f"(unequal points: {c['unequal_points_per_100']:.1f} per 100)"
        )
    return "\n".join(lines)


def format_report(rows: list[dict]) -> str:
    lines = [
        "Swiss pairing (next_round: standings + pairing; target: 1,000 entrants < 1 s)",
        f"{'entrants':>9} {'seats':>5} {'groups':>6} {'tables':>6} {'rematch':>7} "
        f"{'next_round s':>12} {'cpu s':>6} {'standings s':>11} {'x target':>8}",
    ]
    for r in rows:
        target = f"{r['x_target']:.2f}" if "x_target" in r else "-"
        lines.append(
            f"{r['entrants']:>9,} {r['table_size']:>5} {r['score_groups']:>6} {r['tables']:>6} "
            f"{r['rematches']:>7} {r['next_round_s']:>12.3f} {r['next_round_cpu_s']:>6.3f} "
            f"{r['standings_s']:>11.3f} "
            f"{target:>8}"
        )
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.pairing", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer warm-up rounds and repeats")
    parser.add_argument(
        "--sizes",
        type=lambda s: tuple(int(x) for x in s.split(",")),
        default=DEFAULT_SIZES,
        help="comma-separated field sizes (default 1000,10000)",
    )
    parser.add_argument(
        "--tables",
        type=lambda s: tuple(int(x) for x in s.split(",")),
        default=DEFAULT_TABLES,
        help="comma-separated table sizes (default 2,4)",
    )
    parser.add_argument(
        "--rounds", type=int, default=None, help="warm-up rounds (default 4; 2 quick)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--no-quality",
        action="store_true",
        help="skip the quality figures (four-seat repeats, colour breaks)",
    )
    parser.add_argument("--out", default="var/bench/pairing.json", help="JSON file to write")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> list[dict]:
    args = parse_args(argv)
    warmup = args.rounds if args.rounds is not None else (2 if args.quick else 4)
    rows = []
    for table_size in args.tables:
        for entrants in args.sizes:
            repeat = 1 if args.quick or entrants > 2_000 else 3
            print(
                f"pairing {entrants:,} entrants at {table_size} seats...",
                file=sys.stderr,
                flush=True,
            )
            rows.append(
                bench_swiss(
                    entrants, table_size, warmup_rounds=warmup, repeat=repeat, seed=args.seed
                )
            )
    out.write(format_report(rows) + "\n")
    figures = None if args.no_quality else quality(args.quick)
    if figures is not None:
        out.write(format_quality(figures) + "\n")
    path = Path(args.out)
    payload = {
        "benchmark": "swiss_pairing",
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": args.quick,
        "python": platform.python_version(),
        "target": {"entrants": 1_000, "seconds": TARGET_SECONDS_1000},
        "results": rows,
        "quality": figures,
    }
    write_json(path, payload)
    out.write(f"results written to {path}\n")
    return rows


if __name__ == "__main__":
    main()
