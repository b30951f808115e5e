"""At most MAX_LIVE_SEARCH_BOT_MATCHES matches with the search bot and MAX_LIVE_MATCHES
in all, per person with her bot programs (issue #31); the next is a 429 with the reason."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games import services
from games.models import Match, MatchStatus
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db

SEARCH = {"bot": "ismcts", "params": {"iterations": 10}}
RANDOM = {"bot": "random"}


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _create(client, *seats):
    return client.post("/api/matches/", {"game": "silkroad", "seats": list(seats)},
                       format="json")  # fmt: skip


def test_search_bot_matches_are_limited_per_person_with_her_bots(settings):
    settings.MAX_LIVE_SEARCH_BOT_MATCHES = 2
    anna = HumanPlayerFactory(name="anna")
    me = {"player": "anna"}
    api = _api(anna.user)
    assert _create(api, me, SEARCH).status_code == 201
    assert _create(api, SEARCH, SEARCH).status_code == 201  # bots only: still hers
    refused = _create(api, me, SEARCH)
    assert refused.status_code == 429, refused.content
    assert refused.json()["code"] == "too_many_matches"
    assert "2 matches with the search bot" in refused.json()["detail"]
    assert Match.objects.count() == 2  # nothing made
    assert _create(api, me, RANDOM).status_code == 201  # a cheap match still may
    # Her bot program counts against her: its own account does not start afresh.
    bot, token = services.create_external_bot(name="annabot", owner=anna.user)
    bot_api = APIClient(HTTP_AUTHORIZATION=f"Token {token}")
    assert _create(bot_api, {"player": "annabot"}, SEARCH).status_code == 429
    # Another person is not affected; a finished one frees a place.
    ben = HumanPlayerFactory(name="ben")
    assert _create(_api(ben.user), {"player": "ben"}, SEARCH).status_code == 201
    first = Match.objects.filter(created_by=anna.user).order_by("pk").first()
    services.abort_match(match_id=first.pk, user=anna.user)
    assert _create(api, me, SEARCH).status_code == 201


def test_all_matches_are_limited_and_the_page_says_why(settings):
    settings.MAX_LIVE_MATCHES = 2
    cyril = HumanPlayerFactory(name="cyril")
    api = _api(cyril.user)
    assert _create(api, {"player": "cyril"}, RANDOM).status_code == 201
    assert _create(api, RANDOM, RANDOM).status_code == 201
    refused = _create(api, {"player": "cyril"}, RANDOM)
    assert refused.status_code == 429 and "2 matches waiting or running" in refused.json()["detail"]
    # Bot turns go out at the commit, which a test's transaction never reaches: both run.
    assert Match.objects.filter(status=MatchStatus.RUNNING).count() == 2
    page = Client()
    page.force_login(cyril.user)
    answer = page.post("/play/", {"game": "silkroad", "seats": 2, "seat_0": "me",
                                  "seat_1": "ismcts-fast", "time_control": ""})  # fmt: skip
    assert answer.status_code == 200  # the form again, with the reason above it
    assert "2 matches waiting or running" in answer.content.decode()
    assert Match.objects.count() == 2


def test_joining_an_open_seat_counts_too(settings):
    settings.MAX_LIVE_SEARCH_BOT_MATCHES = 1
    dana, eva = HumanPlayerFactory(name="dana"), HumanPlayerFactory(name="eva")
    assert _create(_api(eva.user), {"player": "eva"}, SEARCH).status_code == 201
    waiting = _create(_api(dana.user), {"player": "dana"}, SEARCH, {"open": True})
    assert waiting.status_code == 201
    joined = _api(eva.user).post(f"/api/matches/{waiting.json()['id']}/join/", format="json")
    assert joined.status_code == 429
    assert Match.objects.get(pk=waiting.json()["id"]).open_seats.count() == 1


def test_tournament_rounds_are_never_refused(settings):
    settings.MAX_LIVE_MATCHES = 1
    from tournaments import services as tournament_services

    organiser = HumanPlayerFactory().user
    t = tournament_services.create_tournament(
        name="Bots", game="silkroad", format="swiss", organiser=organiser, auto_advance=False,
        config={"table_size": 2}, seed=2,
    )  # fmt: skip
    for _ in range(6):
        tournament_services.add_entry(tournament=t, player=HumanPlayerFactory())
    rnd = tournament_services.start_tournament(tournament=t)
    tournament_services.start_round(round_=rnd)
    assert rnd.tables.filter(match__isnull=False).count() == 3
