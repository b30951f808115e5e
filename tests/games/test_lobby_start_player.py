"""The lobby states each game's own start-player rule (Engine.start_player), not one
"Seat 1 moves first" for all: in Silk Road the lowest camel driver starts."""

import re

import pytest
from django.urls import reverse

from games.engines.registry import get_engine
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db


def notes(html: str) -> dict[str, str]:
    return dict(re.findall(r'data-game-note="(\w+)">([^<]+)</p>', html))


def test_the_lobby_names_who_moves_first_in_each_game(client):
    client.force_login(HumanPlayerFactory().user)
    page = client.get(reverse("play")).content.decode()
    found = notes(page)
    assert found["silkroad"] == "Silk Road: " + get_engine("silkroad").start_player
    assert "lowest camel driver" in found["silkroad"]
    assert found["yspahan"].startswith("Yspahan: Seat 1 is the start player on the first day")
    assert found["greatwall"] == "Great Wall: Seat 1 moves first; the others follow in seat order."
    assert "Seat 1 moves first. Only" not in page


def test_the_start_player_rules_in_czech(client):
    client.force_login(HumanPlayerFactory().user)
    found = notes(client.get(reverse("play"), HTTP_ACCEPT_LANGUAGE="cs").content.decode())
    assert found["silkroad"].startswith("Hedvábná stezka: Začíná hráč, který dostal poháněče")
    assert found["greatwall"] == "Čingischán: Začíná místo 1, ostatní následují v pořadí míst."
    assert found["yspahan"].startswith("Yspahan: První den je počátečním hráčem místo 1")


def test_the_silk_road_engine_does_what_its_line_says():
    engine = get_engine("silkroad")
    for seed in range(20):
        state = engine.new_game(players=4, seed=seed)
        assert state.drivers[engine.to_act(state)] == min(state.drivers)
