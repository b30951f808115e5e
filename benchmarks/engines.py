"""Engine benchmarks: random-game speed, ismcts search speed and bot strength.

Run ``python -m benchmarks.engines [--game SLUG] [--quick]``; see benchmarks/README.md
for what each figure means and the targets. Results are printed as tables with
ratios to the targets and written as JSON to var/bench/.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from games.engines.base import Engine
from games.engines.bots.common import outcome_rewards

# Targets: docs/architecture.md, The engine contract ("Benchmarks' targets").
TARGET_RANDOM_MEDIAN_MS_4P = 10.0
TARGET_GREEDY_VS_RANDOM = 0.80
TARGET_ISMCTS_VS_GREEDY = 0.60


@dataclass(frozen=True)
class BenchConfig:
    random_seconds: float = 5.0  # time spent playing random games, per player count
    random_min_games: int = 30
    speed_iterations: int = 200  # fixed ismcts budget when measuring decisions/s
    speed_decisions: int = 20
    greedy_games: int = 200  # greedy vs random
    ismcts_games: int = 40  # ismcts vs greedy (expensive: ~1 s per ismcts decision)
    ismcts_time_s: float = 1.0
    ismcts_iterations: int | None = None  # set to use an iteration budget instead of time
    strength_players: tuple[int, ...] = (2,)
    workers: int = 2
    seed: int = 0
    strength: bool = True
    options: dict | None = None


QUICK = BenchConfig(
    random_seconds=1.0,
    random_min_games=5,
    speed_iterations=50,
    speed_decisions=5,
    greedy_games=10,
    ismcts_games=2,
    ismcts_time_s=0.05,
)


# ---- speed ----------------------------------------------------------------------
def random_game_speed(
    engine: Engine,
    players: int,
    *,
    seconds: float,
    min_games: int,
    seed: int = 0,
    options: dict | None = None,
    max_games: int | None = None,
) -> dict:
    """Play uniformly random games for about `seconds` (at least `min_games`) in this process."""
    durations: list[float] = []
    plies: list[int] = []
    spent = 0.0
    game = 0
    while (spent < seconds or game < min_games) and (max_games is None or game < max_games):
        rng = random.Random(seed * 7_919 + game)
        started = time.perf_counter()
        state = engine.new_game(players=players, seed=seed * 7_919 + game, options=options)
        n = 0
        while not engine.is_over(state):
            legal = engine.legal_actions(state)
            state = engine.apply(state, legal[rng.randrange(len(legal))])
            n += 1
        took = time.perf_counter() - started
        durations.append(took)
        plies.append(n)
        spent += took
        game += 1
    return {
        "players": players,
        "games": len(durations),
        "median_ms": 1000 * statistics.median(durations),
        "p90_ms": 1000 * _quantile(durations, 0.9),
        "games_per_s": len(durations) / spent if spent else math.inf,
        "decisions_per_game": statistics.mean(plies),
        "decisions_per_s": sum(plies) / spent if spent else math.inf,
    }


def sample_positions(
    engine: Engine, players: int, count: int, *, seed: int = 0, options: dict | None = None
) -> list[Any]:
    """Positions with a real choice (2+ legal actions), spread over random games."""
    rng = random.Random(seed)
    positions: list[Any] = []
    game = 0
    while len(positions) < count:
        state = engine.new_game(players=players, seed=seed * 7_919 + game, options=options)
        game += 1
        candidates: list[Any] = []
        while not engine.is_over(state):
            legal = engine.legal_actions(state)
            if len(legal) > 1:
                candidates.append(engine.clone(state))
            state = engine.apply(state, legal[rng.randrange(len(legal))])
        if not candidates:
            if game > 10 * count:
                break
            continue
        positions.append(candidates[rng.randrange(len(candidates))])
    return positions


def ismcts_speed(
    engine: Engine,
    players: int,
    *,
    iterations: int,
    decisions: int,
    seed: int = 0,
    options: dict | None = None,
) -> dict:
    """Time ismcts decisions at a fixed iteration budget on sampled positions."""
    positions = sample_positions(engine, players, decisions, seed=seed, options=options)
    bot = engine.make_bot("ismcts", seed=seed, iterations=iterations)
    spent = 0.0
    done_iterations = 0
    for state in positions:
        seat = engine.to_act(state)
        started = time.perf_counter()
        bot.choose(state, seat)
        spent += time.perf_counter() - started
        done_iterations += bot.last_iterations
    return {
        "players": players,
        "iterations": iterations,
        "decisions": len(positions),
        "decisions_per_s": len(positions) / spent if spent else math.inf,
        "iterations_per_s": done_iterations / spent if spent else math.inf,
    }


# ---- strength -------------------------------------------------------------------
@dataclass(frozen=True)
class MatchSpec:
    """One game of a candidate bot against copies of a baseline bot."""

    engine: Any  # a registered slug, or an (importable, picklable) Engine object
    players: int
    seed: int
    candidate_seat: int
    candidate: str
    candidate_params: dict = field(default_factory=dict)
    baseline: str = "random"
    baseline_params: dict = field(default_factory=dict)
    options: dict | None = None


def _resolve(engine: Any) -> Engine:
    if isinstance(engine, str):
        from games.engines.registry import get_engine

        return get_engine(engine)
    return engine


def play_match(spec: MatchSpec) -> dict:
    """Play one game; return the candidate's result (pairwise score in [0, 1], rank)."""
    engine = _resolve(spec.engine)
    bots = []
    for seat in range(spec.players):
        name, params = (
            (spec.candidate, spec.candidate_params)
            if seat == spec.candidate_seat
            else (spec.baseline, spec.baseline_params)
        )
        bots.append(engine.make_bot(name, seed=spec.seed * 31 + seat, **params))
    state = engine.new_game(players=spec.players, seed=spec.seed, options=spec.options)
    thinking = [0.0] * spec.players
    decisions = 0
    while not engine.is_over(state):
        seat = engine.to_act(state)
        started = time.perf_counter()
        action = bots[seat].choose(state, seat)
        thinking[seat] += time.perf_counter() - started
        state = engine.apply(state, action)
        decisions += 1
    outcome = engine.outcome(state)
    ranks = outcome["ranks"]
    me = spec.candidate_seat
    return {
        "seed": spec.seed,
        "seat": me,
        "score": outcome_rewards(outcome, spec.players)[me],
        "first": ranks[me] == 1 and ranks.count(1) == 1,
        "decisions": decisions,
        "candidate_seconds": thinking[me],
    }


def strength(
    engine: Any,
    candidate: str,
    baseline: str,
    *,
    players: int = 2,
    games: int,
    candidate_params: dict | None = None,
    baseline_params: dict | None = None,
    workers: int = 1,
    seed: int = 0,
    options: dict | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """The candidate's score against the baseline over `games` games.

    Seats rotate: consecutive games replay the same deal (seed) with the candidate in
    the next seat, so seat advantage and deal luck cancel out. The score is the
    pairwise result (win 1, tie 0.5, loss 0 against each opponent), i.e. the win rate
    in two-player games."""
    specs = [
        MatchSpec(
            engine=engine,
            players=players,
            seed=seed + i // players,
            candidate_seat=i % players,
            candidate=candidate,
            candidate_params=dict(candidate_params or {}),
            baseline=baseline,
            baseline_params=dict(baseline_params or {}),
            options=options,
        )
        for i in range(games)
    ]
    results = list(_run_all(specs, workers, progress))
    results.sort(key=lambda r: (r["seed"], r["seat"]))
    total = sum(r["score"] for r in results)
    wins = sum(1 for r in results if r["score"] == 1.0)
    losses = sum(1 for r in results if r["score"] == 0.0)
    low, high = wilson_interval(total, len(results))
    decisions = sum(r["decisions"] for r in results)
    return {
        "candidate": candidate,
        "baseline": baseline,
        "players": players,
        "games": len(results),
        "wins": wins,
        "losses": losses,
        "other": len(results) - wins - losses,  # ties, and mixed results with 3+ seats
        "firsts": sum(1 for r in results if r["first"]),
        "rate": total / len(results) if results else math.nan,
        "ci95": [low, high],
        "candidate_params": dict(candidate_params or {}),
        "baseline_params": dict(baseline_params or {}),
        "decisions_per_game": decisions / len(results) if results else math.nan,
        "candidate_seconds_per_game": (
            sum(r["candidate_seconds"] for r in results) / len(results) if results else math.nan
        ),
    }


def _run_all(
    specs: Sequence[MatchSpec], workers: int, progress: Callable[[int, int], None] | None
) -> Iterable[dict]:
    done = 0
    if workers <= 1 or len(specs) <= 1:
        for spec in specs:
            result = play_match(spec)
            done += 1
            if progress:
                progress(done, len(specs))
            yield result
        return
    context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with context.Pool(min(workers, len(specs))) as pool:
        for result in pool.imap_unordered(play_match, specs):
            done += 1
            if progress:
                progress(done, len(specs))
            yield result


def wilson_interval(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval for a proportion (ties counted as half successes)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = q * (len(ordered) - 1)
    lower = math.floor(position)
    upper = min(lower + 1, len(ordered) - 1)
    return ordered[lower] + (ordered[upper] - ordered[lower]) * (position - lower)


# ---- the whole run --------------------------------------------------------------
def player_counts(engine: Engine) -> list[int]:
    """2 and max players, plus 4 (the speed target) when the game allows it."""
    counts = {max(2, engine.min_players), engine.max_players}
    if engine.min_players <= 4 <= engine.max_players:
        counts.add(4)
    return sorted(counts)


def bench_engine(
    engine: Any, config: BenchConfig, *, log: Callable[[str], None] = lambda _: None
) -> dict:
    """Every figure for one engine (a registered slug or an Engine object)."""
    resolved = _resolve(engine)
    result: dict[str, Any] = {
        "slug": resolved.slug,
        "title": resolved.title,
        "random_games": [],
        "ismcts_speed": [],
        "strength": [],
    }
    for players in player_counts(resolved):
        log(f"{resolved.slug}: random games, {players} players")
        result["random_games"].append(
            random_game_speed(
                resolved,
                players,
                seconds=config.random_seconds,
                min_games=config.random_min_games,
                seed=config.seed,
                options=config.options,
            )
        )
        log(f"{resolved.slug}: ismcts speed, {players} players")
        result["ismcts_speed"].append(
            ismcts_speed(
                resolved,
                players,
                iterations=config.speed_iterations,
                decisions=config.speed_decisions,
                seed=config.seed,
                options=config.options,
            )
        )
    if not config.strength:
        return result
    ismcts_params: dict[str, Any] = (
        {"iterations": config.ismcts_iterations}
        if config.ismcts_iterations is not None
        else {"time_s": config.ismcts_time_s}
    )
    for players in config.strength_players:
        if not resolved.min_players <= players <= resolved.max_players:
            continue
        for candidate, baseline, games, params, target in (
            ("greedy", "random", config.greedy_games, {}, TARGET_GREEDY_VS_RANDOM),
            ("ismcts", "greedy", config.ismcts_games, ismcts_params, TARGET_ISMCTS_VS_GREEDY),
        ):
            if games <= 0:
                continue
            log(f"{resolved.slug}: {candidate} vs {baseline}, {players} players, {games} games")
            row = strength(
                engine,
                candidate,
                baseline,
                players=players,
                games=games,
                candidate_params=params,
                workers=config.workers,
                seed=config.seed,
                options=config.options,
                progress=_progress_printer(log, games),
            )
            row["target"] = target if players == 2 else None
            result["strength"].append(row)
    return result


def _progress_printer(log: Callable[[str], None], total: int) -> Callable[[int, int], None]:
    step = max(1, total // 10)

    def report(done: int, of: int) -> None:
        if done % step == 0 or done == of:
            log(f"  {done}/{of} games")

    return report


# ---- output ---------------------------------------------------------------------
def format_report(result: dict, config: BenchConfig) -> str:
    lines = [f"== {result['title']} ({result['slug']}) =="]
    lines.append("")
    lines.append(
        f"{'players':>7}  {'median ms':>9}  {'p90 ms':>8}  {'games/s/core':>12}  "
        f"{'decisions/game':>14}  {'target':>8}  {'x target':>8}"
    )
    for row in result["random_games"]:
        target, ratio = "", ""
        if row["players"] == 4:
            target = f"<{TARGET_RANDOM_MEDIAN_MS_4P:g} ms"
            ratio = _ratio(
                TARGET_RANDOM_MEDIAN_MS_4P / row["median_ms"] if row["median_ms"] else math.inf
            )
        lines.append(
            f"{row['players']:>7}  {row['median_ms']:>9.2f}  {row['p90_ms']:>8.2f}  "
            f"{row['games_per_s']:>12.1f}  {row['decisions_per_game']:>14.1f}  {target:>8}  {ratio:>8}"
        )
    lines.append("")
    lines.append(
        f"{'players':>7}  {'ismcts iterations':>17}  {'decisions/s':>11}  {'iterations/s':>12}"
    )
    for row in result["ismcts_speed"]:
        lines.append(
            f"{row['players']:>7}  {row['iterations']:>17}  {row['decisions_per_s']:>11.2f}  "
            f"{row['iterations_per_s']:>12.0f}"
        )
    if result["strength"]:
        lines.append("")
        lines.append(
            f"{'match':<28}  {'players':>7}  {'games':>5}  {'W-o-L':>11}  {'score':>6}  "
            f"{'95% CI':>13}  {'target':>6}  {'x target':>8}"
        )
        for row in result["strength"]:
            label = (
                f"{row['candidate']}{_params_label(row['candidate_params'])} vs {row['baseline']}"
            )
            target = row.get("target")
            ratio = _ratio(row["rate"] / target) if target else ""
            low, high = row["ci95"]
            wol = f"{row['wins']}-{row['other']}-{row['losses']}"
            lines.append(
                f"{label:<28}  {row['players']:>7}  {row['games']:>5}  {wol:>11}  {row['rate']:>6.3f}  "
                f"{f'{low:.3f}-{high:.3f}':>13}  {(f'{target:.2f}' if target else ''):>6}  {ratio:>8}"
            )
    lines.append("")
    lines.append("x target: how many times the target is met (>= 1.00 meets it).")
    return "\n".join(lines)


def _params_label(params: dict) -> str:
    if "time_s" in params:
        return f"({params['time_s']:g}s)"
    if "iterations" in params:
        return f"({params['iterations']}it)"
    return ""


def _ratio(value: float) -> str:
    mark = "ok" if value >= 1.0 else "--"
    return f"{value:.2f} {mark}"


def write_json(results: list[dict], config: BenchConfig, out_dir: Path, *, quick: bool) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    slugs = "-".join(r["slug"] for r in results) or "none"
    path = out_dir / f"engines-{slugs}-{'quick-' if quick else ''}{stamp}.json"
    payload = {
        "created": stamp,
        "quick": quick,
        "config": asdict(config),
        "targets": {
            "random_median_ms_4p": TARGET_RANDOM_MEDIAN_MS_4P,
            "greedy_vs_random_2p": TARGET_GREEDY_VS_RANDOM,
            "ismcts_vs_greedy_2p": TARGET_ISMCTS_VS_GREEDY,
        },
        "results": results,
    }
    path.write_text(json.dumps(payload, indent=2, default=str) + "\n")
    return path


def parse_args(argv: Sequence[str] | None) -> tuple[argparse.Namespace, BenchConfig]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engines", description=__doc__)
    parser.add_argument("--game", help="only this engine (slug); default: every registered engine")
    parser.add_argument("--quick", action="store_true", help="a smoke run in well under a minute")
    parser.add_argument("--greedy-games", type=int, help="games of greedy vs random")
    parser.add_argument("--ismcts-games", type=int, help="games of ismcts vs greedy")
    parser.add_argument(
        "--ismcts-time", type=float, help="ismcts seconds per decision in the strength test"
    )
    parser.add_argument(
        "--ismcts-iterations",
        type=int,
        help="ismcts iterations per decision instead of a time budget",
    )
    parser.add_argument(
        "--speed-iterations", type=int, help="ismcts iterations when timing decisions"
    )
    parser.add_argument(
        "--random-seconds", type=float, help="seconds of random games per player count"
    )
    parser.add_argument("--strength-players", help="player counts for the strength table, e.g. 2,4")
    parser.add_argument("--workers", type=int, help="processes for the strength games (default 2)")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--options", help="variant options as a JSON object")
    parser.add_argument("--no-strength", action="store_true", help="speed figures only")
    parser.add_argument("--out", default="var/bench", help="directory for the JSON results")
    args = parser.parse_args(argv)
    config = QUICK if args.quick else BenchConfig()
    overrides: dict[str, Any] = {
        "greedy_games": args.greedy_games,
        "ismcts_games": args.ismcts_games,
        "ismcts_time_s": args.ismcts_time,
        "ismcts_iterations": args.ismcts_iterations,
        "speed_iterations": args.speed_iterations,
        "random_seconds": args.random_seconds,
        "workers": args.workers,
        "seed": args.seed,
        "options": json.loads(args.options) if args.options else None,
        "strength_players": (
            tuple(int(p) for p in args.strength_players.split(","))
            if args.strength_players
            else None
        ),
    }
    config = replace(config, **{k: v for k, v in overrides.items() if v is not None})
    if args.no_strength:
        config = replace(config, strength=False)
    return args, config


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> list[dict]:
    args, config = parse_args(argv)
    from games.engines.registry import ENGINES, UnknownGame, get_engine

    if args.game:
        try:
            get_engine(args.game)
        except UnknownGame as exc:
            raise SystemExit(exc.args[0]) from None
        engines: list[Any] = [args.game]
    else:
        engines = sorted(ENGINES)

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    results = []
    for engine in engines:
        result = bench_engine(engine, config, log=log)
        results.append(result)
        out.write(format_report(result, config) + "\n")
        out.flush()
    path = write_json(results, config, Path(args.out), quick=args.quick)
    out.write(f"results written to {path}\n")
    return results


if __name__ == "__main__":
    main()
