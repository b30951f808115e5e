"""Bots inherit their owner's limits (issue #31): a bot's writes count in its owner's
buckets, a bot can't register bots, an owner has at most MAX_BOTS_PER_OWNER bots."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Match, Player
from tests.games.factories import HumanPlayerFactory
from tests.rates import set_rates

pytestmark = pytest.mark.django_db


def _as(user=None, token=None) -> APIClient:
    client = APIClient(HTTP_AUTHORIZATION=f"Token {token}") if token else APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_a_bot_cannot_register_bots():
    owner = HumanPlayerFactory(name="olga").user
    _bot, token = services.create_external_bot(name="olgabot", owner=owner)
    answer = _as(token=token).post("/api/players/bots/", {"name": "olgabot2"}, format="json")
    assert answer.status_code == 403, answer.content
    assert answer.json()["code"] == "bot_not_allowed"
    assert not Player.objects.filter(name="olgabot2").exists()


def test_an_owner_has_at_most_the_configured_number_of_bots(settings):
    settings.MAX_BOTS_PER_OWNER = 2
    owner = HumanPlayerFactory(name="petr").user
    codes = [_as(owner).post("/api/players/bots/", {"name": f"petrbot{i}"}, format="json")
             for i in range(3)]  # fmt: skip
    assert [c.status_code for c in codes] == [201, 201, 409]
    assert codes[2].json()["code"] == "too_many_bots" and "2 bots" in codes[2].json()["detail"]
    assert Player.objects.filter(owner=owner).count() == 2


def test_a_bots_writes_count_in_its_owners_bucket(settings):
    set_rates(settings, match_create="3/min")
    owner = HumanPlayerFactory(name="rita")
    _bot, token = services.create_external_bot(name="ritabot", owner=owner.user)
    body = {"game": "silkroad", "seats": [{"player": "ritabot"}, {"bot": "random"}]}
    mine = {"game": "silkroad", "seats": [{"player": "rita"}, {"bot": "random"}]}
    assert _as(owner.user).post("/api/matches/", mine, format="json").status_code == 201
    bot = _as(token=token)
    assert [bot.post("/api/matches/", body, format="json").status_code for _ in range(3)] == [
        201, 201, 429]  # fmt: skip
    # ... and the owner's own next write waits too: one bucket.
    assert _as(owner.user).post("/api/matches/", mine, format="json").status_code == 429
    # Someone else is not concerned.
    other = HumanPlayerFactory(name="sara")
    theirs = {"game": "silkroad", "seats": [{"player": "sara"}, {"bot": "random"}]}
    assert _as(other.user).post("/api/matches/", theirs, format="json").status_code == 201
    assert Match.objects.count() == 4
