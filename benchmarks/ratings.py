"""Rating benchmarks.

1. Recompute speed: Elo and OpenSkill over 100,000 four-player tables (pure
   replay, target under 20 s for Elo), and the database recompute of the
   platform's own path on a smaller history, as matches per second.
2. Ladder: bots of known strength play four-player Silk Road tables; after 50,
   200 and 1,000 games, how well does each system order them (Kendall tau
   against the true order)? Played games are kept in var/bench/ so later runs
   extend rather than replay them.

    python -m benchmarks.ratings [--quick] [--ladder-games 1000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from multiprocessing import Pool
from pathlib import Path

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


def db_recompute_speed(n_matches: int) -> dict:
    """The platform's own recompute (both systems, with the database writes)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from games import services as game_services
    from games.models import Match, Player
    from ratings import services
    from ratings.models import RatingPool

    pool, _ = RatingPool.objects.get_or_create(
        game="silkroad", name="bench pool", defaults={"k": 20}
    )
    # 40 distinct players of one bot (bot parameters are checked, so no dummy ones).
    players = [
        Player.objects.filter(name=f"bench-{i}").first()
        or game_services.create_engine_bot(name=f"bench-{i}", bot_name="random")
        for i in range(40)
    ]
    have = Match.objects.filter(game="silkroad", rated=True, outcome__over_the_board=True).count()
    for table, ranks in list(
        synthetic_tables(max(0, n_matches - have), len(players), seed=have + 7)
    ):
        game_services.record_offline_match(
            game="silkroad", players=[players[i] for i in table], ranks=ranks
        )
    total = Match.objects.filter(game="silkroad", rated=True, status="finished").count()
    t0 = time.perf_counter()
    services.recompute(pool=pool)
    seconds = time.perf_counter() - t0
    return {"matches": total, "seconds": seconds, "matches_per_s": total / seconds}


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
    parser.add_argument("--db-matches", type=int, default=5_000)
    parser.add_argument("--ladder-games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.db_matches, args.ladder_games = 10_000, 300, 50
    out_dir = Path(os.environ.get("VAR_DIR", "var")) / "bench"
    out_dir.mkdir(parents=True, exist_ok=True)

    speed = recompute_speed(args.tables)
    print(f"recompute of {speed['tables']:,} four-player tables: Elo {speed['elo_s']:.2f} s "
          f"(target 20 s, ratio {speed['elo_ratio_to_target']:.2f}); OpenSkill ~{speed['openskill_s_estimated']:.1f} s")  # fmt: skip
    db = db_recompute_speed(args.db_matches)
    print(f"database recompute (Elo + OpenSkill, with writes): {db['matches']:,} matches in {db['seconds']:.2f} s "
          f"= {db['matches_per_s']:.0f} matches/s")  # fmt: skip
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
    result = {"recompute": speed, "db_recompute": db, "ladder": taus}
    (out_dir / "ratings.json").write_text(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
