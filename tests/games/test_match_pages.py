import json

import pytest
from django.urls import reverse

from games import services
from games.engines.registry import ENGINES
from games.models import TimeControl, Variant
from games.selectors import match_view
from tests.games.factories import (
    EngineBotFactory,
    HumanPlayerFactory,
    UserFactory,
    logged,
    play_out,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(params=sorted(ENGINES))
def duel(request):
    """Alice (seat 0) against a bot, at Alice's first decision, in every game."""
    alice = HumanPlayerFactory()
    match = services.create_match(game=request.param, players=[alice, EngineBotFactory()], seed=2)
    while match.to_act != 0:
        services.play_bot_decisions(match_id=match.pk, ply=match.ply)
        match.refresh_from_db()
    return match, alice


def test_match_list_and_its_live_rows(client, duel):
    match, _ = duel
    page = client.get(reverse("match-list"))
    assert page.status_code == 200 and f"/matches/{match.pk}/" in page.content.decode()
    rows = client.get(reverse("match-list"), HTTP_HX_REQUEST="true")
    assert b"<html" not in rows.content and b'id="match-rows"' in rows.content


def test_match_page_shows_board_and_the_seat_holders_choices(client, duel):
    match, alice = duel
    assert b"<svg" in client.get(reverse("match-detail", args=[match.pk])).content
    assert (
        b"button"
        not in client.get(reverse("match-live", args=[match.pk]) + "?ply=-1").content.split(b"Log")[
            0
        ]
    )
    client.force_login(alice.user)
    html = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert 'class="act"' in html


def test_live_panel_answers_204_when_nothing_changed(client, duel):
    match, _ = duel
    url = reverse("match-live", args=[match.pk])
    assert client.get(url, {"ply": match.ply}).status_code == 204
    assert client.get(url, {"ply": match.ply - 1}).status_code == 200


def test_playing_a_move_from_the_page(client, duel):
    match, alice = duel
    client.force_login(alice.user)
    legal = match_view(match, 0)["legal_actions"]
    assert legal
    response = client.post(
        reverse("match-act", args=[match.pk]),
        {"ply": match.ply, "action": json.dumps(legal[0]["action"])},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert len(logged(match, source="player")) == 1
    stale = client.post(reverse("match-act", args=[match.pk]),
                        {"ply": match.ply, "action": json.dumps({"type": "nonsense"})}, HTTP_HX_REQUEST="true")  # fmt: skip
    assert "not" in stale.content.decode().lower()  # the error is shown in the panel
    assert (
        client.post(reverse("match-act", args=[match.pk]), {"ply": "x", "action": "{"}).status_code
        == 400
    )


def test_replay_steps_through_a_finished_match(client):
    bots = [EngineBotFactory(), EngineBotFactory()]
    match = services.create_match(game="silkroad", players=bots, seed=6)
    play_out(match)
    url = reverse("match-replay", args=[match.pk])
    first = client.get(url, {"ply": 0})
    assert first.status_code == 200 and b"Move 0 of" in first.content
    step = client.get(url, {"ply": 5}, HTTP_HX_REQUEST="true")
    assert b"Move 5 of" in step.content and b"<html" not in step.content
    last = client.get(url, {"ply": 10_000})
    assert f"Move {match.ply} of {match.ply}".encode() in last.content


def test_variant_options_are_validated_against_the_engine_schema(client):
    admin_user = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    # The game is chosen first (?game=), then each option has its own field.
    url = reverse("admin:games_variant_add") + "?game=silkroad"
    bad = client.post(url, {"name": "broken", "opt_board_side": "moon"})
    assert (
        bad.status_code == 200
        and "Board side: choose one of “printed action fields”".encode() in bad.content
    )
    assert not Variant.objects.exists()
    mix = {
        f"opt_tile_mix__{k}": n
        for k, n in ENGINES["silkroad"].default_options()["tile_mix"].items()
    }
    good = client.post(url, {"name": "random tiles", "opt_board_side": "blank", **mix})
    assert good.status_code == 302
    assert Variant.objects.get().options["board_side"] == "blank"


def test_time_control_presets_need_exactly_one_kind(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    url = reverse("admin:games_timecontrol_add")
    both = client.post(url, {"name": "odd", "per_move_s": 30, "initial_s": 300, "increment_s": 0})
    assert both.status_code == 200 and not TimeControl.objects.filter(name="odd").exists()
    ok = client.post(url, {"name": "blitz", "initial_s": 300, "increment_s": 5})
    assert ok.status_code == 302 and TimeControl.objects.get(name="blitz").as_dict() == {
        "initial_s": 300,
        "increment_s": 5,
    }
