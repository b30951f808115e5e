"""The match page's prompt: what the pending Great Wall decision is, in one sentence."""

from __future__ import annotations

import random

from games.engines import i18n
from games.engines.greatwall.prompts import prompt
from games.engines.greatwall.state import DECISION_STAGES
from games.engines.registry import get_engine
from tests.games.engines.prompt_helpers import prompts_by_stage
from tests.games.engines.test_i18n import write_mo

FALLBACK = "Choose your move."


def test_every_decision_met_in_play_has_its_own_sentence():
    seen = prompts_by_stage("greatwall", prompt, games=6)
    assert {"setup_chip", "setup_scout", "draw", "use", "wall", "move", "lay"} <= set(seen)
    assert set(seen) <= DECISION_STAGES
    for stage, sentences in seen.items():
        for text in sentences:
            assert text and text != FALLBACK and text.endswith("."), (stage, text)
    assert seen["wall"] == {"Choose where to build a wall."}
    # The two starting chips are asked for differently.
    assert len(seen["setup_chip"]) == 2


def test_no_stage_falls_back_to_the_generic_sentence():
    state = get_engine("greatwall").new_game(players=2, seed=1)
    for stage in DECISION_STAGES:
        state.stage = stage
        assert prompt(state, state.seat) != FALLBACK, stage


def test_the_prompt_is_in_the_players_language(tmp_path):
    write_mo(
        tmp_path / "cs" / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo",
        {"Choose where to build a wall.": "Vyberte, kde postavíte zeď."},
    )
    engine = get_engine("greatwall")
    state = engine.new_game(players=2, seed=2)
    rng = random.Random(2)
    while state.stage != "wall":
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    token = i18n.set_language("cs", tmp_path)
    try:
        assert prompt(state, state.seat) == "Vyberte, kde postavíte zeď."
    finally:
        i18n.reset_language(token)
    assert prompt(state, state.seat) == "Choose where to build a wall."
