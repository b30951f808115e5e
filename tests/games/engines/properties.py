"""What the engines' property tests share: game counts, hypothesis settings, the
opt-in slow runs and the replay check.

Each engine's test_properties.py reads ``<PREFIX>_GAMES`` (how many random games
the default run plays) and runs its slow tests only with ``<PREFIX>_SLOW=1``.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, settings

from games.engines.base import Action, Engine


def game_count(prefix: str, default: int) -> int:
    return int(os.environ.get(f"{prefix}_GAMES", str(default)))


def hypothesis_settings(games: int) -> settings:
    # derandomized: a failure in CI is the same failure on a laptop
    return settings(max_examples=games, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])  # fmt: skip


def slow(prefix: str):
    """Mark a test as one of the long runs, skipped unless <PREFIX>_SLOW is set."""
    skip = pytest.mark.skipif(not os.environ.get(f"{prefix}_SLOW"),
                              reason=f"set {prefix}_SLOW=1 to run")  # fmt: skip

    def mark(test):
        return pytest.mark.slow(skip(test))

    return mark


def assert_replays(engine: Engine, players: int, seed: int, log: list[Action], final,
                   options: dict | None = None) -> None:  # fmt: skip
    """Replaying the (JSON round-tripped) log from the seed reaches the same state and outcome."""
    replay = engine.new_game(players=players, seed=seed, options=options)
    for action in log:
        replay = engine.apply(replay, json.loads(json.dumps(action)))
    assert engine.to_json(replay) == engine.to_json(final)
    assert engine.outcome(replay) == engine.outcome(final)
