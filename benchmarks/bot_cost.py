"""What a search-bot decision costs (issue #31): seconds per 1,000 ISMCTS iterations per
game, with the engine's default playouts and with the most expensive ones the parameter
bounds allow, uncapped; then the same asked of 20,000 iterations under the 5 s cap.

The bounds in games/engines/bots/ismcts.py and the cap (MAX_TIME_S, BOT_MAX_THINK_S)
come from these figures; benchmarks/README.md, "Search bot cost", has a run.

    python -m benchmarks.bot_cost [--quick]
"""

from __future__ import annotations

import random
import sys
import time

from benchmarks.common import setup_django

SETTINGS = {
    "default playouts": {},
    "deepest allowed (depth 40, 4 candidates)": {"rollout_depth": 40, "rollout_candidates": 4},
}


def _midgame(engine, seed: int):
    state = engine.new_game(players=3, seed=seed, options={})
    rng = random.Random(seed)
    for _ in range(4):
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    while len(engine.legal_actions(state)) < 2:
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    return state


def main(argv: list[str] | None = None) -> list[dict]:
    setup_django()
    from games.engines.bots.common import MAX_TIME_S
    from games.engines.registry import get_engine

    quick = "--quick" in (argv if argv is not None else sys.argv[1:])
    iterations = 200 if quick else 1000
    rows = []
    print(f"{'game':10} {'playouts':42} {'s / 1,000 it.':>14} {'20,000 it. capped':>18}")
    for game in ("silkroad", "yspahan", "greatwall"):
        engine = get_engine(game)
        for label, params in SETTINGS.items():
            times = []
            for seed in (1, 2, 3):
                state = _midgame(engine, seed)
                bot = engine.make_bot("ismcts", seed=seed, iterations=iterations, **params)
                bot.max_s = None  # uncapped: the cost itself
                started = time.perf_counter()
                bot.choose(state, engine.to_act(state))
                times.append((time.perf_counter() - started) * 1000 / iterations)
            per_1000 = sorted(times)[1]
            capped = engine.make_bot("ismcts", seed=9, iterations=20000, **params)
            state = _midgame(engine, 9)
            capped.choose(state, engine.to_act(state))
            rows.append({"game": game, "playouts": label, "s_per_1000": round(per_1000, 2),
                         "capped_s": round(capped.last_seconds, 2),
                         "capped_iterations": capped.last_iterations})  # fmt: skip
            print(f"{game:10} {label:42} {per_1000:14.2f} {capped.last_seconds:10.2f} s "
                  f"({capped.last_iterations} it.)")  # fmt: skip
    print(f"cap: {MAX_TIME_S:g} s a decision, whatever the parameters")
    return rows


if __name__ == "__main__":
    main()
