"""The score bounds typed-in results are checked against hold for the engines' own games:
random games played to the end never leave them (whole numbers too)."""

import random

import pytest

from games.engines.registry import ENGINES, get_engine

GAMES = [(slug, n) for slug in sorted(ENGINES) for n in range(ENGINES[slug].min_players,
                                                                ENGINES[slug].max_players + 1)]  # fmt: skip


@pytest.mark.parametrize("slug, players", GAMES)
def test_played_games_stay_within_the_score_bounds(slug, players):
    engine = get_engine(slug)
    low, high = engine.score_bounds(players)
    assert low <= 0 < high
    for seed in range(6):
        rng = random.Random(seed)
        state = engine.new_game(players=players, seed=seed)
        for _ in range(5000):
            if engine.is_over(state):
                break
            state = engine.apply(state, rng.choice(engine.legal_actions(state)))
        assert engine.is_over(state)
        scores = engine.outcome(state)["scores"]
        assert all(isinstance(s, int) and low <= s <= high for s in scores), (seed, scores)
