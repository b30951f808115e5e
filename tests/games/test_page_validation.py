"""Junk in page URLs and forms: a normal page or a form error, never a 500."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import services
from games.models import Player
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, logged

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel():
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(game="silkroad", players=[alice, bob], seed=2)
    return match, alice


@pytest.mark.parametrize(
    "query", ["status=%00", "game=%00", "status=%00&game=%00&page=%00", "status=bogus", "page=99999999999999999999"]
)  # fmt: skip
def test_match_list_page_with_junk_filters_is_a_normal_page(client, duel, query):
    response = client.get(f"{reverse('match-list')}?{query}")
    assert response.status_code == 200
    assert b"<html" in response.content


def test_match_list_page_filters_by_status(client, duel):
    match, _ = duel
    running = client.get(f"{reverse('match-list')}?status=running").content.decode()
    finished = client.get(f"{reverse('match-list')}?status=finished").content.decode()
    assert f"/matches/{match.pk}/" in running and f"/matches/{match.pk}/" not in finished


@pytest.mark.parametrize("query", ["seat=99999999999999999999", "seat=%00", "ply=1e400", "ply=%00"])
def test_match_page_parameters_with_junk(client, duel, query):
    match, alice = duel
    client.force_login(alice.user)
    for name in ("match-detail", "match-live"):
        assert client.get(f"{reverse(name, args=[match.pk])}?{query}").status_code == 200


@pytest.mark.parametrize(
    "data",
    [
        {"ply": "0", "action": "[" * 100_000 + "]" * 100_000},
        {"ply": "0", "action": json.dumps([1, 2])},
        {"ply": "99999999999999999999", "action": "{}"},
        {"ply": "-1", "action": "{}"},
        {"ply": "0", "action": json.dumps({"type": "x" * 20_000})},
    ],
)
def test_playing_junk_from_the_page_is_a_400(client, duel, data):
    match, alice = duel
    client.force_login(alice.user)
    response = client.post(reverse("match-act", args=[match.pk]), data)
    assert response.status_code == 400
    assert not logged(match)


def _signup(client, username):
    return client.post("/signup/", {"username": username, "email": "",
                                    "password1": "s3cure-pass-word", "password2": "s3cure-pass-word"})  # fmt: skip


@pytest.mark.parametrize("taken", ["greedy-bot", "Greedy-Bot"])
def test_signup_with_a_bots_name_is_a_form_error(client, taken):
    EngineBotFactory(name="greedy-bot")
    response = _signup(client, taken)
    assert response.status_code == 200
    assert "taken" in response.content.decode()
    assert not get_user_model().objects.filter(username__iexact=taken).exists()
    assert Player.objects.filter(name__iexact="greedy-bot").count() == 1


def test_signup_with_a_name_too_long_for_a_player_is_a_form_error(client):
    response = _signup(client, "a" * 60)
    assert response.status_code == 200
    assert "characters" in response.content.decode()
    assert not get_user_model().objects.filter(username="a" * 60).exists()
