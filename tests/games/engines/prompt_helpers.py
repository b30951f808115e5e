"""Shared by the engines' prompt tests: the prompt of every decision of random games."""

from __future__ import annotations

import random

from games.engines.registry import get_engine


def prompts_by_stage(slug: str, prompt, *, games: int, players: int = 2) -> dict[str, set[str]]:
    """{stage: the sentences `prompt` gave there} over `games` random games of `slug`."""
    engine = get_engine(slug)
    seen: dict[str, set[str]] = {}
    for seed in range(games):
        rng = random.Random(seed)
        state = engine.new_game(players=players, seed=seed)
        while not engine.is_over(state):
            seat = engine.to_act(state)
            seen.setdefault(state.stage, set()).add(prompt(state, seat))
            state = engine.apply(state, rng.choice(engine.legal_actions(state)))
        assert prompt(state, None) == ""
    return seen
