"""Counts with a noun go through ngettext (games/engines/i18n.py): "1 card" / "2 cards" in
English, the three Czech forms "1 karta" / "2 karty" / "5 karet" from the committed catalog,
and the Great Wall's wall is "Velká zeď", not the game's Czech title "Čingischán"."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engines import i18n
from games.engines.registry import get_engine
from games.engines.yspahan.state import State as YspahanState

LOCALE = Path(__file__).resolve().parents[3] / "locale"


@pytest.fixture(params=["en", "cs"])
def language(request):
    token = i18n.set_language(request.param, LOCALE)
    yield request.param
    i18n.reset_language(token)


CARDS = {
    "en": {1: "1 card", 2: "2 cards", 5: "5 cards"},
    "cs": {1: "1 karta", 2: "2 karty", 5: "5 karet"},
}


@pytest.mark.parametrize("n", [1, 2, 5])
def test_silk_road_card_counts(language, n):
    engine = get_engine("silkroad")
    state = engine.new_game(players=4, seed=12345)
    action = {"type": "play", "good": "silk", "count": n, "caravan": 1}
    assert engine.action_choice(state, action) == CARDS[language][n]


YELLOW = {
    "en": {1: "Buy 1 yellow die and roll", 3: "Buy 3 yellow dice and roll"},
    "cs": {1: "Koupit 1 žlutou kostku a hodit", 3: "Koupit 3 žluté kostky a hodit"},
}
SWAP = {
    "en": {1: "Exchange 1 camel for 1 gold", 5: "Exchange 5 camels for 5 gold"},
    "cs": {1: "Vyměnit 1 velblouda za 1 peníz", 5: "Vyměnit 5 velbloudů za 5 peněz"},
}


@pytest.mark.parametrize("n", [1, 3])
def test_yspahan_yellow_dice(language, n):
    engine = get_engine("yspahan")
    state = engine.new_game(players=3, seed=1)
    assert engine.describe(state, {"type": "yellow", "count": n}) == YELLOW[language][n]


@pytest.mark.parametrize("n", [1, 5])
def test_yspahan_exchange(language, n):
    engine = get_engine("yspahan")
    state: YspahanState = engine.new_game(players=3, seed=1)
    assert (
        engine.describe(state, {"type": "swap", "give": "camels", "count": n})
        == (SWAP[language][n])
    )


def test_a_malformed_count_still_gets_a_label():
    engine = get_engine("yspahan")
    state = engine.new_game(players=3, seed=1)
    assert engine.describe(state, {"type": "yellow", "count": "x"}) == "Buy x yellow dice and roll"


def test_the_great_wall_key_names_the_wall_and_the_panel_names_the_game():
    engine = get_engine("greatwall")
    state = engine.new_game(players=2, seed=3)
    token = i18n.set_language("cs", LOCALE)
    try:
        svg = engine.render_svg(engine.observation(state, 0))
    finally:
        i18n.reset_language(token)
    assert ">Velká zeď</text>" in svg  # the key's line for the wall
    assert ">Čingischán</text>" in svg  # the panel's title
    assert svg.count("Čingischán") == 1
