"""What the engines' property tests share: game counts, hypothesis settings, the
opt-in slow runs, the random game's steps and checks, and the replay check.

Each engine's test_properties.py reads ``<PREFIX>_GAMES`` (how many random games
the default run plays) and runs its slow tests only with ``<PREFIX>_SLOW=1``.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


def random_games(max_players: int, max_seed: int = 2**63):
    """The hypothesis arguments of a random-games test: players from 2, the game's
    seed and the seed of the random choices."""
    return given(
        players=st.integers(min_value=2, max_value=max_players),
        seed=st.integers(min_value=0, max_value=max_seed),
        choice_seed=st.integers(min_value=0, max_value=2**32),
    )


def random_legal(engine: Engine, state, rng: random.Random) -> Action:
    """A random legal action, after checking there is one and none is listed twice."""
    legal = engine.legal_actions(state)
    assert legal
    assert len({json.dumps(a, sort_keys=True) for a in legal}) == len(legal)
    return rng.choice(legal)


def assert_json_and_determinize(
    engine: Engine, state, players: int, rng: random.Random, check_invariants: Callable
) -> None:
    """The state survives a JSON round trip, and a random seat's determinization keeps
    what that seat observes and the invariants."""
    data = engine.to_json(state)
    assert engine.to_json(engine.from_json(json.loads(json.dumps(data)))) == data
    seat = rng.randrange(players)
    obs = engine.observation(state, seat)
    world = engine.determinize(state, seat, random.Random(rng.random()))
    assert engine.observation(world, seat) == obs
    check_invariants(world)


def assert_competition_ranks(ranks: list[int], scores: list[int]) -> None:
    """Each seat's rank is one more than the number of seats that scored more."""
    for p, rank in enumerate(ranks):
        assert rank == 1 + sum(1 for q in scores if q > scores[p])
