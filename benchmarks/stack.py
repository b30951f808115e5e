"""Bot-vs-bot throughput through the whole platform against the bare engine.

Plays the same random-bot matches twice: in-process through the engine alone,
and through the platform (a real Celery worker process, the broker and the
database from the environment: SQLite + folder broker by default, PostgreSQL +
Redis with DATABASE_URL / REDIS_URL). Prints decisions per second for both and
the ratio of platform time to engine time (target: at most 1.5).

    python -m benchmarks.stack [--game silkroad] [--matches 20] [--players 2 4]
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


def through_platform(game: str, players: int, seeds: list[int]) -> tuple[float, int]:
    from config.worker_process import celery_worker, wait_for
    from games import services
    from games.models import Match, MatchStatus

    bot = services.builtin_bot_player(bot_name="random")
    matches = [
        services.create_match(game=game, players=[bot] * players, seed=seed, start=False)
        for seed in seeds
    ]
    ids = [m.pk for m in matches]
    with celery_worker(settings_module=os.environ["DJANGO_SETTINGS_MODULE"]):
        time.sleep(3)  # let the worker boot; its start-up is not the platform's per-match cost
        t0 = time.perf_counter()
        for pk in ids:
            services.start_match(match_id=pk)
        wait_for(
            lambda: not Match.objects.filter(pk__in=ids).exclude(status=MatchStatus.FINISHED).exists(),
            timeout=600, what="all benchmark matches to finish", interval=0.05,
        )  # fmt: skip
        elapsed = time.perf_counter() - t0
    plies = sum(Match.objects.filter(pk__in=ids).values_list("ply", flat=True))
    return elapsed, plies


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="silkroad")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args(argv)
    _setup_django()
    from django.conf import settings

    backend = f"{settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]} + {settings.CELERY_BROKER_URL.split(':')[0]}"
    print(f"stack benchmark: {args.game}, random bots, {args.matches} matches each, on {backend}")
    print(
        f"{'players':>7} {'engine dec/s':>13} {'platform dec/s':>15} {'ratio':>7}  (target <= 1.5)"
    )
    results = []
    for n in args.players:
        seeds = list(range(1000 + n * 100, 1000 + n * 100 + args.matches))
        e_time, e_plies = engine_only(args.game, n, seeds)
        p_time, p_plies = through_platform(args.game, n, seeds)
        row = {
            "players": n, "engine_s": e_time, "platform_s": p_time,
            "engine_decisions_per_s": e_plies / e_time, "platform_decisions_per_s": p_plies / p_time,
            "ratio": p_time / e_time, "decisions": p_plies,
        }  # fmt: skip
        results.append(row)
        print(f"{n:>7} {row['engine_decisions_per_s']:>13.0f} {row['platform_decisions_per_s']:>15.0f} "
              f"{row['ratio']:>7.2f}")  # fmt: skip
    out = {"game": args.game, "backend": backend, "results": results}
    path = settings.VAR_DIR / "bench" / "stack.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2))
    return out


if __name__ == "__main__":
    main()
