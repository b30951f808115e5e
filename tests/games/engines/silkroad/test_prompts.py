"""The match page's prompt: what the pending Silk Road decision is, in one sentence."""

from __future__ import annotations

import pytest

from games.engines import i18n
from games.engines.registry import get_engine
from games.engines.silkroad.prompts import prompt
from games.engines.silkroad.state import DECISION_STAGES
from tests.games.engines.prompt_helpers import prompts_by_stage
from tests.games.engines.test_i18n import write_mo

FALLBACK = "Choose your move."


def test_every_decision_met_in_play_has_its_own_sentence():
    seen = prompts_by_stage("silkroad", prompt, games=12, players=3)
    # The stages random games reach often; the rarer ones are built by hand below.
    assert {"play", "draw", "sell", "gem", "route", "rob"} <= set(seen)
    assert set(seen) <= DECISION_STAGES
    for stage, sentences in seen.items():
        for text in sentences:
            assert text and text != FALLBACK and text.endswith("."), (stage, text)


@pytest.mark.parametrize("stage", sorted(DECISION_STAGES - {"sell", "layout"}))
def test_no_stage_falls_back_to_the_generic_sentence(stage):
    state = get_engine("silkroad").new_game(players=2, seed=1)
    state.stage = stage
    assert prompt(state, state.actor) != FALLBACK


def test_the_first_decision_asks_for_a_caravan_to_move():
    engine = get_engine("silkroad")
    state = engine.new_game(players=2, seed=3)
    assert state.stage == "play"
    assert prompt(state, engine.to_act(state)) == (
        "Choose a caravan to move: first a good from your hand, then the caravan."
    )


def test_a_sale_names_the_good_and_the_market():
    seen = prompts_by_stage("silkroad", prompt, games=4, players=3)
    sales = seen["sell"]
    assert all(s.startswith("Sell ") and s.endswith(", or decline.") for s in sales)
    assert any(" at " in s and "{" not in s for s in sales)


def test_the_prompt_is_in_the_players_language(tmp_path):
    write_mo(
        tmp_path / "cs" / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo",
        {
            "Choose a caravan to move: first a good from your hand, then the caravan.": (
                "Vyberte karavanu, kterou pohnete: nejprve zboží z ruky, pak karavanu."
            ),
        },
    )
    engine = get_engine("silkroad")
    state = engine.new_game(players=2, seed=3)
    token = i18n.set_language("cs", tmp_path)
    try:
        assert prompt(state, 0).startswith("Vyberte karavanu")
    finally:
        i18n.reset_language(token)
    assert prompt(state, 0).startswith("Choose a caravan")
