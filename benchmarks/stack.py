"""Bot-vs-bot throughput through the whole platform against the bare engine.

Plays the same random-bot matches twice: in-process through the engine alone,
and through the platform (a real Celery worker process, the broker and the
database from the environment: SQLite + folder broker by default, PostgreSQL +
Redis with DATABASE_URL / REDIS_URL). Prints decisions per second for both and
the ratio of platform time to engine time (target: at most 1.5).

    python -m benchmarks.stack [--game silkroad ...] [--matches 30] [--players 2 4]

Besides the ratio it prints the platform's own cost per match and per decision
(platform time minus engine time): for games whose random-bot decisions take
~20 µs, a fixed cost of a few milliseconds per match (a task, a transaction)
is already most of the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import time


def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def engine_only(game: str, players: int, seeds: list[int]) -> tuple[float, int]:
    """Seconds and decisions to play the matches with the same bots, engine only."""
    from games.engines.registry import get_engine

    engine = get_engine(game)
    plies = 0
    t0 = time.perf_counter()
    for seed in seeds:
        state = engine.new_game(players=players, seed=seed, options=engine.default_options())
        ply = 0
        while not engine.is_over(state):
            legal = engine.legal_actions(state)
            if len(legal) == 1:
                action = legal[0]
            else:
                bot = engine.make_bot("random", seed=seed * 31 + ply)
                action = bot.choose(state, engine.to_act(state))
            state = engine.apply(state, action)
            ply += 1
        plies += ply
    return time.perf_counter() - t0, plies


def through_platform(game: str, players: int, seeds: list[int]) -> dict:
    """Queue the started matches, then let a fresh worker play them all.

    The bot throughput is timed from the worker's first bot decision to the last
    match's end, both as the worker recorded them, so the worker's boot does not
    count; starting a match (a web request's work) is timed on its own."""
    from django.db.models import Max, Min

    from config.worker_process import celery_worker, wait_for
    from games import services
    from games.models import Match, MatchAction, MatchStatus

    bot = services.builtin_bot_player(bot_name="random")
    ids = [
        services.create_match(game=game, players=[bot] * players, seed=seed, start=False).pk
        for seed in seeds
    ]
    t0 = time.perf_counter()
    for pk in ids:
        services.start_match(match_id=pk)
    start_s = time.perf_counter() - t0
    with celery_worker(settings_module=os.environ["DJANGO_SETTINGS_MODULE"]):
        wait_for(
            lambda: not Match.objects.filter(pk__in=ids).exclude(status=MatchStatus.FINISHED).exists(),
            timeout=600, what="all benchmark matches to finish", interval=0.05,
        )  # fmt: skip
    first = MatchAction.objects.filter(match_id__in=ids, source=MatchAction.Source.BOT).aggregate(
        at=Min("created_at")
    )["at"]
    last = Match.objects.filter(pk__in=ids).aggregate(at=Max("finished_at"))["at"]
    plies = sum(Match.objects.filter(pk__in=ids).values_list("ply", flat=True))
    return {"seconds": (last - first).total_seconds(), "plies": plies, "start_s": start_s}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", nargs="+", default=None, help="default: every registered game")
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args(argv)
    _setup_django()
    from django.conf import settings

    from games.engines.registry import ENGINES

    backend = f"{settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]} + {settings.CELERY_BROKER_URL.split(':')[0]}"
    print(f"stack benchmark: random bots, {args.matches} matches each, on {backend}")
    print(f"{'game':>10} {'players':>7} {'engine dec/s':>13} {'platform dec/s':>15} {'ratio':>7} "
          f"{'extra ms/match':>15} {'extra µs/dec':>13} {'start ms':>9}  (target ratio <= 1.5)")  # fmt: skip
    results = []
    for game, n in [(g, n) for g in args.game or sorted(ENGINES) for n in args.players]:
        seeds = list(range(1000 + n * 100, 1000 + n * 100 + args.matches))
        e_time, e_plies = engine_only(game, n, seeds)
        platform = through_platform(game, n, seeds)
        p_time, p_plies = platform["seconds"], platform["plies"]
        extra = p_time - e_time
        row = {
            "game": game, "players": n, "engine_s": e_time, "platform_s": p_time,
            "engine_decisions_per_s": e_plies / e_time,
            "platform_decisions_per_s": p_plies / p_time,
            "ratio": p_time / e_time, "decisions": p_plies,
            "extra_ms_per_match": extra * 1000 / len(seeds),
            "extra_us_per_decision": extra * 1e6 / max(p_plies, 1),
            "start_ms_per_match": platform["start_s"] * 1000 / len(seeds),
        }  # fmt: skip
        results.append(row)
        print(f"{game:>10} {n:>7} {row['engine_decisions_per_s']:>13.0f} "
              f"{row['platform_decisions_per_s']:>15.0f} {row['ratio']:>7.2f} "
              f"{row['extra_ms_per_match']:>15.1f} {row['extra_us_per_decision']:>13.1f} "
              f"{row['start_ms_per_match']:>9.1f}")  # fmt: skip
    out = {"backend": backend, "results": results}
    path = settings.VAR_DIR / "bench" / "stack.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2))
    return out


if __name__ == "__main__":
    main()
