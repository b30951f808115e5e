"""The live fragment's ETag and shared render: every change a viewer can see moves the ETag,
and viewers without organiser rights share one rendered copy per version."""

import json
import re

import pytest
from django.test import Client

from tests.games.factories import EngineBotFactory, UserFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments import services
from tournaments.models import Round
from tournaments.services import lifecycle

pytestmark = pytest.mark.django_db


def _live(client, t, etag=None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(f"/tournaments/{t.pk}/live/", HTTP_HX_REQUEST="true", **headers)


def _otb(n=4, organiser=None):
    return tournament_with_bots(
        n=n, config={"table_size": 2, "rounds": 2}, over_the_board=True, auto_advance=False,
        organiser=organiser,
    )  # fmt: skip


def test_viewers_share_one_render_per_version(django_assert_max_num_queries):
    t = _otb()
    services.start_tournament(tournament=t)
    first = _live(Client(), t)
    assert first.status_code == 200 and first["Cache-Control"] == "no-cache"
    # Another viewer: the version lookup, then the cached copy; no standings, no rounds.
    with django_assert_max_num_queries(1):
        second = _live(Client(), t)
    assert second.content == first.content and second["ETag"] == first["ETag"]


@pytest.mark.parametrize("change", ["start_round", "result", "add_entry", "withdraw", "pair"])
def test_every_visible_change_moves_the_etag(change):
    t = _otb()
    services.start_tournament(tournament=t)
    rnd = Round.objects.get(tournament=t, number=1)
    if change in ("result", "pair"):
        services.start_round(round_=rnd)
    if change == "pair":
        for table in rnd.tables.all():
            services.record_result(table=table, ranks=[1, 2])
    client = Client()
    before = _live(client, t)
    if change == "start_round":
        services.start_round(round_=rnd)
    elif change == "result":
        services.record_result(table=rnd.tables.first(), ranks=[2, 1])
    elif change == "add_entry":
        services.add_entry(tournament=t, player=EngineBotFactory())
    elif change == "withdraw":
        services.withdraw_entry(entry=t.entries.first())
    elif change == "pair":
        services.pair_next_round(tournament=t)
    after = _live(client, t, etag=before["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"] and after.content != before.content


def test_the_start_shows_playing_tables_at_once():
    t = _otb()
    services.start_tournament(tournament=t)
    rnd = Round.objects.get(tournament=t, number=1)
    before = _live(Client(), t)
    assert b"status-pending" in before.content
    services.start_round(round_=rnd)
    after = _live(Client(), t, etag=before["ETag"])
    assert b"status-playing" in after.content and b"status-pending" not in after.content


def test_organisers_get_their_forms_and_viewers_never_do():
    organiser = UserFactory()
    t = _otb(organiser=organiser)
    services.start_tournament(tournament=t)
    boss = Client()
    boss.force_login(organiser)
    theirs = _live(boss, t)
    assert b"Start round" in theirs.content and b"csrfmiddlewaretoken" in theirs.content
    viewer = _live(Client(), t)
    assert b"Start round" not in viewer.content and b"csrfmiddlewaretoken" not in viewer.content
    assert theirs["ETag"] != viewer["ETag"]
    # A viewer's cached copy never reaches the organiser, nor the other way round.
    assert _live(boss, t, etag=viewer["ETag"]).status_code == 200
    assert b"Start round" in _live(boss, t).content
    stranger = Client()
    stranger.force_login(UserFactory())
    assert b"Start round" not in _live(stranger, t).content


def test_a_missing_tournament_is_a_404():
    assert Client().get("/tournaments/999999/live/").status_code == 404


def _poll(html: bytes) -> tuple[str, str]:
    """The live element's next poll: its version (hx-vals) and its interval."""
    tag = re.search(rb'<div id="tournament-live"[^>]*>', html).group(0).decode()
    vals = json.loads(re.search(r"hx-vals='([^']+)'", tag).group(1))
    return vals["v"], re.search(r'hx-trigger="every (\w+)"', tag).group(1)


def test_a_poll_that_shows_the_current_version_gets_204(django_assert_max_num_queries):
    player = UserFactory()
    t = _otb()
    services.add_entry(tournament=t, player=player.player)
    services.start_tournament(tournament=t)
    reader = Client()
    reader.force_login(player)
    page = reader.get(f"/tournaments/{t.pk}/")
    version, every = _poll(page.content)
    assert every == "2s" and f"e{t.entries.get(player=player.player).pk}." in version
    url = f"/tournaments/{t.pk}/live/"
    # The session, the user, her permissions (two), and one for the version and her entry.
    with django_assert_max_num_queries(5):
        same = reader.get(url, {"v": version}, HTTP_HX_REQUEST="true")
    assert same.status_code == 204 and same.content == b""
    services.start_round(round_=t.rounds.get(number=1))
    moved = reader.get(url, {"v": version}, HTTP_HX_REQUEST="true")
    assert moved.status_code == 200 and _poll(moved.content)[0] != version
    assert reader.get(url, {"v": "made-up"}, HTTP_HX_REQUEST="true").status_code == 200


@pytest.mark.parametrize("end", ["finish", "cancel"])
def test_an_event_that_is_over_polls_every_30_seconds(end):
    t = _otb(organiser=UserFactory())
    services.start_tournament(tournament=t)
    assert _poll(Client().get(f"/tournaments/{t.pk}/").content)[1] == "2s"
    if end == "cancel":
        lifecycle.cancel(tournament=t, by=t.organiser)
    else:
        for number in (1, 2):  # asking for round 3 of 2 finishes the event
            rnd = Round.objects.get(tournament=t, number=number)
            services.start_round(round_=rnd)
            for table in rnd.tables.all():
                services.record_result(table=table, ranks=[1, 2])
            services.pair_next_round(tournament=t)
    t.refresh_from_db()
    assert t.status == ("cancelled" if end == "cancel" else "finished")
    assert _poll(Client().get(f"/tournaments/{t.pk}/").content)[1] == "30s"
    assert _poll(_live(Client(), t).content)[1] == "30s"
