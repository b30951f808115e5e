"""The header's counts endpoint for static/js/live-header.js (tiny, 304 while unchanged),
what every page hands the script, and the settings page's turn sound."""

import pytest
from django.urls import reverse

from games import services
from games.models import Player
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

COUNTS_URL = "/header/counts/"


def test_the_counts_url():
    assert reverse("header-counts") == COUNTS_URL


def test_a_visitor_who_is_not_signed_in_gets_204_and_no_script(client):
    assert client.get(COUNTS_URL).status_code == 204
    page = client.get("/").content.decode()
    assert "live-header.js" not in page and "data-header-counts" not in page


def test_the_counts_change_with_an_invitation_and_304_while_they_do_not(
    client, django_assert_max_num_queries
):
    alice = HumanPlayerFactory(user__username="alice")
    bob = HumanPlayerFactory(user__username="bob")
    client.force_login(alice.user)
    first = client.get(COUNTS_URL)
    assert first.status_code == 200 and first.json() == {
        "turns": 0,
        "invitations": 0,
        "notifications": 0,
    }
    assert len(first.content) < 50  # the body of a request made every 2 s per open page
    assert first["Content-Type"] == "application/json"
    assert first["Cache-Control"] == "private, no-cache"
    etag = first["ETag"]

    # Session, user and one COUNT each: no more for a request every page repeats.
    with django_assert_max_num_queries(5):
        same = client.get(COUNTS_URL, headers={"if-none-match": etag})
    assert same.status_code == 304 and same.content == b"" and same["ETag"] == etag

    services.create_match(game="silkroad", players=[bob, alice], created_by=bob.user)
    changed = client.get(COUNTS_URL, headers={"if-none-match": etag})
    assert changed.status_code == 200 and changed.json() == {
        "turns": 0,
        "invitations": 1,
        "notifications": 0,
    }
    assert changed["ETag"] != etag


def test_the_counts_include_a_match_waiting_for_her_move(client):
    alice = HumanPlayerFactory(user__username="alice")
    match = services.create_match(game="yspahan", players=[alice, EngineBotFactory()], seed=2)
    while match.to_act != 0:
        services.play_bot_decisions(match_id=match.pk, ply=match.ply)
        match.refresh_from_db()
    client.force_login(alice.user)
    assert client.get(COUNTS_URL).json() == {"turns": 1, "invitations": 0, "notifications": 0}
    page = client.get("/", headers={"accept-language": "en"}).content.decode()
    assert "<title>(Your move) Home · Caravan Club</title>" in page
    assert 'data-header-counts="/header/counts/"' in page and 'data-turns="1"' in page
    assert 'data-your-move="(Your move)"' in page and "js/live-header.js" in page


def test_only_a_write_method_is_refused(client):
    client.force_login(UserFactory())
    assert client.post(COUNTS_URL).status_code == 405
    assert client.head(COUNTS_URL).status_code == 200


def test_the_settings_page_saves_the_turn_sound_and_pages_pass_it_on(client):
    user = UserFactory()
    client.force_login(user)
    page = client.get("/settings/", headers={"accept-language": "en"}).content.decode()
    assert (
        '<input type="checkbox" name="turn_sound" aria-describedby="id_turn_sound_helptext" id="id_turn_sound">'
        in page
    )
    assert 'id="id_turn_sound_helptext">' in page
    assert "data-turn-sound" not in page  # off by default

    saved = client.post("/settings/", {"time_zone": "", "turn_sound": "on"}, follow=True)
    page = saved.content.decode()
    assert "Sound setting saved." in page and "Time zone saved." not in page
    assert Player.objects.get(user=user).turn_sound is True
    assert 'id="id_turn_sound" checked>' in page
    assert 'data-turn-sound="on"' in page

    # An unticked box is not sent at all: off again.
    saved = client.post("/settings/", {"time_zone": ""}, follow=True)
    assert "Sound setting saved." in saved.content.decode()
    assert Player.objects.get(user=user).turn_sound is False
    unchanged = client.post("/settings/", {"time_zone": ""}, follow=True)
    assert "Settings saved." in unchanged.content.decode()


def test_the_turn_sound_and_the_zone_saved_together(client):
    user = UserFactory()
    client.force_login(user)
    saved = client.post("/settings/", {"time_zone": "Asia/Tokyo", "turn_sound": "on"}, follow=True)
    page = saved.content.decode()
    assert "Time zone saved." in page and "Sound setting saved." in page
    player = Player.objects.get(user=user)
    assert (player.time_zone, player.turn_sound) == ("Asia/Tokyo", True)


def test_a_bad_zone_saves_no_sound_either(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post("/settings/", {"time_zone": "Mars/Olympus", "turn_sound": "on"})
    assert response.status_code == 200
    assert Player.objects.get(user=user).turn_sound is False
