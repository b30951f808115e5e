"""Rating benchmarks.

1. Recompute speed: Elo and OpenSkill over 100,000 four-player tables (pure
   replay, target under 20 s for Elo); and the database recompute (the
   platform's own `ratings.services.recompute`) of 10,000 and 100,000 real
   four-player matches with seats, against the pure replay of the same tables
   in the same run (goal: at most 10x), with the recompute's peak memory
   measured in a child process (goal: under 300 MB).
2. Ladder: bots of known strength play four-player Silk Road tables; after 50,
   200 and 1,000 games, how well does each system order them (Kendall tau
   against the true order)? Played games are kept in var/bench/ so later runs
   extend rather than replay them.

    python -m benchmarks.ratings [--quick] [--history 10000 100000] [--profile FILE]
                                 [--ladder-games 1000] [--no-ladder]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from multiprocessing import Pool
from pathlib import Path

from benchmarks.common import setup_django, write_json

# Strongest first as expected before measuring. The reference order of the taus is
# measured instead (head to head over all the ladder games played, see
# measured_order): over 1,000 games greedy beat ismcts-16 in 62% of their
# meetings, so this expected order is wrong in that one pair.
LADDER = [
    ("ismcts-64", "ismcts", {"iterations": 64}),
    ("ismcts-16", "ismcts", {"iterations": 16}),
    ("greedy", "greedy", {}),
    ("random", "random", {}),
]


def synthetic_tables(n_tables: int, n_players: int, seed: int = 1):
    rng = random.Random(seed)
    strength = [rng.gauss(0, 1) for _ in range(n_players)]
    for _ in range(n_tables):
        table = rng.sample(range(n_players), 4)
        perf = [strength[p] + rng.gauss(0, 1) for p in table]
        order = sorted(range(4), key=lambda i: -perf[i])
        ranks = [0] * 4
        for place, i in enumerate(order, 1):
            ranks[i] = place
        yield table, ranks


def recompute_speed(n_tables: int) -> dict:
    from ratings.systems import elo, openskill_rating

    tables = list(synthetic_tables(n_tables, 2000))
    t0 = time.perf_counter()
    elo.replay(tables, elo.EloParams())
    elo_s = time.perf_counter() - t0
    os_tables = tables[: max(1, n_tables // 10)]
    states: dict = {}
    t0 = time.perf_counter()
    for players, ranks in os_tables:
        new = openskill_rating.update(
            [states.get(p, openskill_rating.start()) for p in players], ranks
        )
        states.update(zip(players, new, strict=True))
    os_s = (time.perf_counter() - t0) * n_tables / len(os_tables)
    return {"tables": n_tables, "elo_s": elo_s, "openskill_s_estimated": os_s, "elo_target_s": 20.0,
            "elo_ratio_to_target": elo_s / 20.0}  # fmt: skip


BENCH_GAME = "silkroad"
BENCH_EPOCH = datetime(2020, 1, 1, tzinfo=UTC)


def bench_history(n_matches: int, n_players: int = 2000):
    """A pool over exactly `n_matches` finished four-player matches with their seats,
    written with COPY (PostgreSQL) or executemany; kept between runs.

    Each size has its own variant, and the pool counts only that variant. Returns
    (pool, tables): the tables as (player ids by seat, ranks) in match-end order.
    """
    from django.core.management import call_command
    from django.db import connection, transaction

    from games.models import Match, Player, PlayerKind, Seat, Variant
    from games.models.players import fold_name
    from games.services.match_writes import db_datetime, insert_rows
    from ratings.models import RatingPool

    call_command("migrate", verbosity=0)
    names = [f"bench-recompute-{i}" for i in range(n_players)]
    Player.objects.bulk_create(
        [
            Player(name=n, name_key=fold_name(n), kind=PlayerKind.ENGINE_BOT, bot_name="random")
            for n in names
        ],
        ignore_conflicts=True,
    )
    ids = dict(Player.objects.filter(name__in=names).values_list("name", "id"))
    player_ids = [ids[n] for n in names]
    variant, _ = Variant.objects.get_or_create(game=BENCH_GAME, name=f"bench recompute {n_matches}")
    # The synthetic players are built-in bots: only a pool that opts them in rates them.
    pool, _ = RatingPool.objects.update_or_create(
        game=BENCH_GAME,
        name=f"bench recompute {n_matches}",
        defaults={"variant": variant, "rate_builtin_bots": True},
    )
    tables = [
        ([player_ids[i] for i in table], ranks)
        for table, ranks in synthetic_tables(n_matches, n_players, seed=n_matches)
    ]
    if Match.objects.filter(variant=variant).count() == n_matches:
        return pool, tables
    qn = connection.ops.quote_name
    match_t, seat_t = qn(Match._meta.db_table), qn(Seat._meta.db_table)
    with transaction.atomic(), connection.cursor() as cursor:
        for model in ("ratingchange", "appliedmatch", "rating"):
            cursor.execute(f"DELETE FROM ratings_{model} WHERE pool_id = %s", [pool.pk])
        cursor.execute(
            f"DELETE FROM {seat_t} WHERE match_id IN (SELECT id FROM {match_t} WHERE variant_id = %s)",
            [variant.pk],
        )
        cursor.execute(f"DELETE FROM {match_t} WHERE variant_id = %s", [variant.pk])
    # A cached engine state of a realistic order of size, which the recompute must not read.
    state = json.dumps({"bench": True, "board": list(range(150))})
    step = 50_000
    for lo in range(0, n_matches, step):
        part = tables[lo : lo + step]
        with transaction.atomic(), connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute(
                    "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                    [Match._meta.db_table, len(part)],
                )
                match_ids = [row[0] for row in cursor.fetchall()]
            else:
                cursor.execute(f"SELECT COALESCE(MAX(id), 0) FROM {match_t}")
                first = cursor.fetchone()[0] + 1
                match_ids = list(range(first, first + len(part)))
            matches, seats = [], []
            for k, (match_id, (players, ranks)) in enumerate(zip(match_ids, part, strict=True)):
                at = db_datetime(BENCH_EPOCH + timedelta(seconds=lo + k))
                outcome = json.dumps({"ranks": ranks, "engine_ranks": ranks, "scores": None,
                                      "forfeited": [False] * 4, "over_the_board": True})  # fmt: skip
                matches.append((match_id, BENCH_GAME, variant.pk, "{}", 0, "finished", 0, "auto",
                                True, 0, state, outcome, "", "", at, at, at, at))  # fmt: skip
                seats.extend(
                    (match_id, i, p, False, 0, ranks[i], "", 0) for i, p in enumerate(players)
                )
            insert_rows(Match._meta.db_table, ("id", "game", "variant_id", "options", "seed",
                        "status", "increment_s", "timeout_policy", "rated", "ply", "state",
                        "outcome", "abort_reason", "finish_reason", "created_at", "started_at", "finished_at",
                        "updated_at"),
                        matches)  # fmt: skip
            insert_rows(Seat._meta.db_table, ("match_id", "index", "player_id", "forfeited",
                                               "timeouts", "rank", "forfeit_reason",
                                               "timeouts_in_row"), seats)  # fmt: skip
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {match_t}")
            cursor.execute(f"ANALYZE {seat_t}")
    return pool, tables


def pure_replay(tables, params) -> tuple[float, dict, dict]:
    """Elo and OpenSkill over the tables in memory: the arithmetic alone."""
    from ratings.systems import elo, openskill_rating

    t0 = time.perf_counter()
    elo_state = elo.replay(tables, params)
    os_state: dict = {}
    for players, ranks in tables:
        new = openskill_rating.update(
            [os_state.get(p) or openskill_rating.start() for p in players], ranks
        )
        os_state.update(zip(players, new, strict=True))
    return time.perf_counter() - t0, elo_state, os_state


def _maxrss_mb() -> float:
    """This process's peak resident memory. Linux's ru_maxrss carries the parent's
    size at fork over the exec, so VmHWM (this address space's own) comes first."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def recompute_child(pool_id: int, profile: str | None) -> dict:
    """Run in a fresh process, so that its peak memory is the recompute's own."""
    setup_django(migrate=False)
    from django.db import connection

    from ratings import services
    from ratings.models import RatingPool

    pool = RatingPool.objects.get(pk=pool_id)
    connection.ensure_connection()
    before = _maxrss_mb()
    t0 = time.perf_counter()
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        n = profiler.runcall(services.recompute, pool=pool)
        profiler.dump_stats(profile)
    else:
        n = services.recompute(pool=pool)
    seconds = time.perf_counter() - t0
    return {"matches": n, "seconds": seconds, "rss_before_mb": before,
            "peak_rss_mb": _maxrss_mb(), "vendor": connection.vendor}  # fmt: skip


def recompute_vs_pure(n_matches: int, profile: str | None = None, fresh: bool = False) -> dict:
    """The database recompute against the pure replay of the same tables, in one run."""
    setup_django(migrate=False)
    from django.db import connection

    from ratings import services
    from ratings.models import AppliedMatch, Rating, System
    from ratings.systems import openskill_rating

    t0 = time.perf_counter()
    pool, tables = bench_history(n_matches)
    built_s = time.perf_counter() - t0
    pure_s, elo_state, os_state = pure_replay(tables, services.elo_params(pool))
    connection.close()  # the child takes the pool lock on its own connection
    argv = [sys.executable, "-m", "benchmarks.ratings", "--recompute-child", str(pool.pk)]
    if profile:
        argv += ["--profile", profile]
    env = {**os.environ, "DEBUG": os.environ.get("DEBUG", "false")}  # as in production
    refill = not fresh and not AppliedMatch.objects.filter(pool=pool).exists()
    if refill:
        # A recompute replaces the pool's rows: the timed run must find them there.
        subprocess.run(argv[:5], capture_output=True, text=True, check=True, env=env)
    done = subprocess.run(argv, capture_output=True, text=True, check=True, env=env)
    child = json.loads(done.stdout.strip().splitlines()[-1])
    worst = 0.0
    for player, system, value, games in Rating.objects.filter(pool=pool).values_list(
        "player_id", "system", "value", "games"
    ):
        if system == System.ELO:
            want, want_games = elo_state[player]
        else:
            want, want_games = openskill_rating.ordinal(*os_state[player]), None
        worst = max(worst, abs(value - want))
        if want_games is not None and games != want_games:
            worst = float("inf")
    return {"matches": child["matches"], "pure_s": pure_s, "recompute_s": child["seconds"],
            "ratio": child["seconds"] / pure_s, "ratio_goal": 10.0,
            "peak_rss_mb": child["peak_rss_mb"], "rss_growth_mb": child["peak_rss_mb"] - child["rss_before_mb"],
            "peak_goal_mb": 300.0, "max_abs_difference": worst, "vendor": child["vendor"],
            "build_s": built_s, "load_1min": os.getloadavg()[0],
            "replaced_rows": not fresh}  # fmt: skip


def print_recompute_rows(rows: list[dict]) -> None:
    print(f"{'matches':>9} {'pure s':>8} {'recompute s':>12} {'ratio':>6} {'(goal)':>7} "
          f"{'peak MB':>8} {'(goal)':>7} {'growth MB':>10} {'max |diff|':>11} {'load':>5}")  # fmt: skip
    for r in rows:
        print(f"{r['matches']:>9,} {r['pure_s']:>8.2f} {r['recompute_s']:>12.2f} {r['ratio']:>6.2f} "
              f"{'<= 10':>7} {r['peak_rss_mb']:>8.0f} {'< 300':>7} {r['rss_growth_mb']:>10.1f} "
              f"{r['max_abs_difference']:>11.2g} {r['load_1min']:>5.2f}")  # fmt: skip


def _play(args) -> dict:
    seed, names = args
    from games.engines.registry import get_engine

    engine = get_engine("silkroad")
    spec = {name: (bot, params) for name, bot, params in LADDER}
    bots = [
        engine.make_bot(spec[n][0], seed=seed * 10 + i, **spec[n][1]) for i, n in enumerate(names)
    ]
    state = engine.new_game(players=len(names), seed=seed)
    while not engine.is_over(state):
        seat = engine.to_act(state)
        state = engine.apply(state, bots[seat].choose(state, seat))
    return {"seed": seed, "seats": names, "ranks": engine.outcome(state)["ranks"]}


def ladder_games(n: int, cache: Path, workers: int) -> list[dict]:
    games = json.loads(cache.read_text()) if cache.exists() else []
    missing = n - len(games)
    if missing > 0:
        rng = random.Random(len(games))
        jobs = [
            (len(games) + i, rng.sample([name for name, _, _ in LADDER], 4)) for i in range(missing)
        ]
        with Pool(workers) as pool:
            for i, game in enumerate(pool.imap(_play, jobs), 1):
                games.append(game)
                if i % 10 == 0:
                    cache.write_text(json.dumps(games))
                    print(f"  ladder games: {len(games)}/{n}", flush=True)
        cache.write_text(json.dumps(games))
    return games[:n]


def kendall_tau(order_a: list[str], order_b: list[str]) -> float:
    pos = {name: i for i, name in enumerate(order_b)}
    n, concordant, discordant = len(order_a), 0, 0
    for i in range(n):
        for j in range(i + 1, n):
            if pos[order_a[i]] < pos[order_a[j]]:
                concordant += 1
            else:
                discordant += 1
    return (concordant - discordant) / (n * (n - 1) / 2)


def head_to_head(games: list[dict]) -> dict[tuple[str, str], tuple[int, int]]:
    """(a, b) -> (times a finished ahead of b, times they sat at one table)."""
    tally: dict[tuple[str, str], list[int]] = {}
    for g in games:
        for i, a in enumerate(g["seats"]):
            for j, b in enumerate(g["seats"]):
                if i != j:
                    row = tally.setdefault((a, b), [0, 0])
                    row[0] += g["ranks"][i] < g["ranks"][j]
                    row[1] += 1
    return {k: (v[0], v[1]) for k, v in tally.items()}


def measured_order(games: list[dict]) -> list[str]:
    """The bots by head-to-head majorities (Copeland), then by their mean pairwise score."""
    h2h = head_to_head(games)
    names = [name for name, _, _ in LADDER]

    def key(a: str) -> tuple[int, float]:
        rates = [
            h2h[(a, b)][0] / h2h[(a, b)][1] for b in names if b != a and h2h.get((a, b), (0, 0))[1]
        ]
        return (sum(r > 0.5 for r in rates), sum(rates) / max(len(rates), 1))

    return sorted(names, key=key, reverse=True)


def ladder_taus(games: list[dict], checkpoints: list[int]) -> list[dict]:
    """Kendall tau of each system's order after the first n games against the order
    measured head to head over all the games (and against the expected LADDER order)."""
    from ratings.systems import elo, openskill_rating

    expected = [name for name, _, _ in LADDER]
    truth = measured_order(games)
    out = []
    for n in checkpoints:
        if n > len(games):
            break
        subset = games[:n]
        elo_state = elo.replay([(g["seats"], g["ranks"]) for g in subset], elo.EloParams())
        os_state: dict = {}
        for g in subset:
            new = openskill_rating.update(
                [os_state.get(p, openskill_rating.start()) for p in g["seats"]], g["ranks"]
            )
            os_state.update(zip(g["seats"], new, strict=True))
        elo_order = sorted(truth, key=lambda p: -elo_state.get(p, (1500, 0))[0])
        os_order = sorted(
            truth,
            key=lambda p: -openskill_rating.ordinal(*os_state.get(p, openskill_rating.start())),
        )
        out.append({"games": n, "elo_tau": kendall_tau(elo_order, truth), "openskill_tau": kendall_tau(os_order, truth),
                    "elo_tau_expected": kendall_tau(elo_order, expected),
                    "openskill_tau_expected": kendall_tau(os_order, expected),
                    "elo_order": elo_order, "openskill_order": os_order, "reference": truth})  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description="rating benchmarks")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--tables", type=int, default=100_000)
    parser.add_argument("--history", type=int, nargs="+", default=[10_000, 100_000],
                        help="database recompute against the pure replay at these sizes")  # fmt: skip
    parser.add_argument("--profile", help="cProfile the largest recompute into this file")
    parser.add_argument("--ladder-games", type=int, default=1000)
    parser.add_argument("--no-ladder", action="store_true")
    parser.add_argument("--fresh", action="store_true",
                        help="time the recompute of an empty pool (no rows to replace)")  # fmt: skip
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--recompute-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.recompute_child:
        result = recompute_child(args.recompute_child, args.profile)
        print(json.dumps(result))
        return result
    if args.quick:
        args.tables, args.history, args.ladder_games = 10_000, [2_000], 50
    out_dir = Path(os.environ.get("VAR_DIR", "var")) / "bench"
    out_dir.mkdir(parents=True, exist_ok=True)

    speed = recompute_speed(args.tables)
    print(f"recompute of {speed['tables']:,} four-player tables: Elo {speed['elo_s']:.2f} s "
          f"(target 20 s, ratio {speed['elo_ratio_to_target']:.2f}); OpenSkill ~{speed['openskill_s_estimated']:.1f} s")  # fmt: skip
    rows = []
    for n in args.history:
        profile = args.profile if n == max(args.history) else None
        rows.append(recompute_vs_pure(n, profile=profile, fresh=args.fresh))
    print(
        f"database recompute (Elo + OpenSkill, every row written; {rows[0]['vendor']}) "
        "against the pure replay of the same tables, each in one run:"
    )
    print_recompute_rows(rows)
    result = {"recompute": speed, "db_recompute": rows}
    if args.no_ladder:
        write_json(out_dir / "ratings.json", result)
        return result
    games = ladder_games(args.ladder_games, out_dir / "ladder-games.json", args.workers)
    taus = ladder_taus(games, [50, 200, 1000])
    h2h = head_to_head(games)
    print(
        f"ladder, {len(games)} four-player Silk Road games; head to head (row finished ahead of column):"
    )
    names = [n for n, _, _ in LADDER]
    print(" " * 10 + "".join(f"{b:>11}" for b in names))
    for a in names:
        cells = [
            f"{h2h[(a, b)][0] / h2h[(a, b)][1]:>11.3f}" if (a, b) in h2h else f"{'-':>11}"
            for b in names
        ]
        print(f"{a:>10}" + "".join(cells))
    print(f"reference order (measured): {measured_order(games)}; expected: {names}")
    print(f"{'games':>6} {'Elo tau':>8} {'OpenSkill tau':>14}   (vs expected: Elo, OpenSkill)")
    for row in taus:
        print(f"{row['games']:>6} {row['elo_tau']:>8.2f} {row['openskill_tau']:>14.2f}   "
              f"({row['elo_tau_expected']:.2f}, {row['openskill_tau_expected']:.2f})  Elo order {row['elo_order']}")  # fmt: skip
    result["ladder"] = taus
    write_json(out_dir / "ratings.json", result)
    return result


if __name__ == "__main__":
    main()
