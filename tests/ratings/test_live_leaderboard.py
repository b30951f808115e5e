"""The leaderboard by push (ratings/live_feeds.py) through the production web server's
`/events/`: rows brought up when ratings are applied or recomputed, the same for every
reader; and the rated match's page, whose "being rated…" gives way to the changes."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from ratings import services as rating_services
from tests.games.factories import HumanPlayerFactory
from tests.live_server import open_stream

pytestmark = pytest.mark.django_db(transaction=True)  # the server reads what was committed

BOARD = re.compile(r'id="leaderboard-rows" data-live-feed="([^"]+)"')
MATCH = re.compile(r'data-live-feed="(match:[^"]+)"')


def _board(query: str = "") -> str:
    page = Client().get(f"/ratings/silkroad/{query}").content.decode()
    return BOARD.search(page).group(1)


def _rated_match():
    alice = HumanPlayerFactory(user__username="alice")
    bob = HumanPlayerFactory(user__username="bob")
    return services.record_offline_match(game="silkroad", players=[alice, bob], ranks=[1, 2])


def test_the_page_and_its_rows_name_the_board_feed():
    assert _board() == "board:silkroad:elo:humans@0"
    assert _board("?system=openskill&kind=bots") == "board:silkroad:openskill:bots@0"
    rows = Client().get("/ratings/silkroad/rows/", {"system": "elo", "kind": "all"})
    assert b'data-live-feed="board:silkroad:elo:all@0"' in rows.content


def test_ratings_applied_reach_every_reader_of_the_board_with_the_rows_poll(server):
    feed = _board()
    first, second = open_stream(server, [feed]), open_stream(server, [feed])
    assert (first.status, second.status) == (200, 200)
    assert first.next_event(timeout=1.0) is None  # current when it opened
    match = _rated_match()
    rating_services.on_match_finished(match_id=match.pk)

    event = first.next_event()
    assert event is not None and event.name == "board:silkroad:elo:humans"
    html = event.json["html"]
    assert (
        event.json["swap"] == "outerHTML" and "/players/alice/" in html and "/players/bob/" in html
    )
    assert second.next_event().data == event.data  # one render for both readers
    poll = Client().get("/ratings/silkroad/rows/", {"system": "elo", "kind": "humans"})
    assert html == poll.content.decode()
    assert event.id == BOARD.search(html).group(1)
    first.close()
    second.close()


def test_a_recompute_is_pushed_too(server):
    match = _rated_match()
    rating_services.on_match_finished(match_id=match.pk)
    stream = open_stream(server, [_board("?system=openskill")])
    assert stream.next_event(timeout=1.0) is None
    rating_services.recompute(pool=rating_services.default_pool("silkroad"))
    event = stream.next_event()
    assert event is not None and "/players/alice/" in event.json["html"]
    stream.close()


def test_the_match_page_stops_saying_being_rated_when_the_changes_arrive(server):
    match = _rated_match()
    page = Client().get(f"/matches/{match.pk}/").content.decode()
    assert "being rated" in page
    stream = open_stream(server, [MATCH.search(page).group(1)])
    assert stream.status == 200
    rating_services.on_match_finished(match_id=match.pk)
    for _ in range(3):  # the panel as it stood when the stream opened may come first
        event = stream.next_event()
        assert event is not None, "the rated panel never came"
        if "being rated" not in event.json["html"]:
            break
    assert "being rated" not in event.json["html"] and "(+" in event.json["html"]
    stream.close()


def test_a_board_that_cannot_be_is_refused(server):
    for spec, status in [("board:chess:elo:humans@x", 404), ("board:silkroad:glicko:humans@x", 400),
                         ("board:silkroad:elo:aliens@x", 400), ("board:silkroad@x", 400)]:  # fmt: skip
        stream = open_stream(server, [spec])
        assert stream.status == status, spec
        stream.close()
