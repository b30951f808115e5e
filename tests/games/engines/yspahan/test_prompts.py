"""The match page's prompt: what the pending Yspahan decision is, in one sentence."""

from __future__ import annotations

from games.engines import i18n
from games.engines.registry import get_engine
from games.engines.yspahan import flow
from games.engines.yspahan.prompts import prompt
from games.engines.yspahan.state import STAGES
from tests.games.engines.prompt_helpers import prompts_by_stage
from tests.games.engines.test_i18n import write_mo

FALLBACK = "Choose your move."


def test_every_decision_met_in_play_has_its_own_sentence():
    seen = prompts_by_stage("yspahan", prompt, games=6, players=3)
    assert {"yellow", "row", "action", "place", "move", "build", "end"} <= set(seen)
    for stage, sentences in seen.items():
        for text in sentences:
            assert text and text != FALLBACK and text.endswith("."), (stage, text)


def test_no_stage_falls_back_to_the_generic_sentence():
    state = get_engine("yspahan").new_game(players=2, seed=1)
    for stage in STAGES:
        state.stage = stage
        assert prompt(state, state.actor) != FALLBACK, stage


def test_the_dice_groups_are_counted():
    engine = get_engine("yspahan")
    state = engine.new_game(players=2, seed=5)
    while state.stage != "row":
        state = engine.apply(state, engine.legal_actions(state)[0])
    n = len(flow.usable_rows(state, state.actor))
    assert n > 1
    assert prompt(state, state.actor) == f"Choose one of the {n} dice groups."


def test_the_prompt_is_in_the_players_language(tmp_path):
    write_mo(
        tmp_path / "cs" / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo",
        {"Choose how many yellow dice to buy (1 gold each) before the roll.": "Vyberte kostky."},
    )
    engine = get_engine("yspahan")
    state = engine.new_game(players=2, seed=5)
    assert state.stage == "yellow"
    token = i18n.set_language("cs", tmp_path)
    try:
        assert prompt(state, state.actor) == "Vyberte kostky."
    finally:
        i18n.reset_language(token)
