"""The match list by push (games/live_lists.py): the rows of /matches/ follow matches
created, filled up, started and aborted through the production web server's `/events/`
stream, with what the page's own poll would get, one render for every reader."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from games import services
from games.engines.registry import get_engine
from games.models import Match, MatchStatus
from tests.games.factories import HumanPlayerFactory
from tests.live_server import open_stream

pytestmark = pytest.mark.django_db(transaction=True)  # the server reads what was committed

FEED = re.compile(r'id="match-rows" data-live-feed="([^"]+)"')
# "Started": "now", "3 seconds ago": the clock's, not the list's (a render and a poll a
# moment apart differ there).
STARTED = re.compile(r"<td>(now|[^<]* ago)</td>")


def _feed(query: str = "") -> str:
    """The rows' data-live-feed on the page, as a browser gets it."""
    page = Client().get(f"/matches/{query}").content.decode()
    return FEED.search(page).group(1)


def _poll(query: str = "") -> str:
    """What the rows' own poll (htmx) gets."""
    return Client().get(f"/matches/{query}", headers={"hx-request": "true"}).content.decode()


def _same_rows(html: str) -> str:
    return STARTED.sub("<td>…</td>", html)


def _move(match: Match, players) -> None:
    match.refresh_from_db()
    engine = get_engine(match.game)
    legal = engine.legal_actions(engine.from_json(match.state))
    services.submit_action(match_id=match.pk, user=players[match.to_act].user, ply=match.ply,
                           action=random.Random(1).choice(legal))  # fmt: skip


def _event_showing(stream, text: str, tries: int = 5):
    """The first event whose rows show `text` (an earlier change may come first)."""
    for _ in range(tries):
        event = stream.next_event()
        assert event is not None, f"no event showing {text!r}"
        if text in event.json["html"]:
            return event
    raise AssertionError(f"no event showing {text!r}")


def test_the_page_names_its_feed_and_only_for_filters_that_exist():
    assert re.fullmatch(r"matches:-:-:1@[0-9a-f]{8}", _feed())
    assert _feed("?status=running&game=silkroad").startswith("matches:running:silkroad:1@")
    # A filter no match can have: the rows poll, the stream is not refused for them.
    page = Client().get("/matches/?game=chess").content.decode()
    assert 'id="match-rows" hx-get' in page and "data-live-feed" not in page


def test_a_match_created_appears_in_every_readers_stream_with_the_same_render(server):
    feed = _feed()
    spec = feed.split("@")[0]
    first, second = open_stream(server, [feed]), open_stream(server, [feed])
    assert (first.status, second.status) == (200, 200)
    assert first.next_event(timeout=1.0) is None  # current when it opened
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(game="silkroad", players=[alice, bob], seed=3)

    seen = _event_showing(first, f'href="/matches/{match.pk}/"')
    assert seen.name == spec and seen.id.startswith(f"{spec}@")
    assert seen.json["swap"] == "outerHTML"
    # Two anonymous readers of one list: one render, the same bytes.
    assert _event_showing(second, f'href="/matches/{match.pk}/"').data == seen.data
    # What the rows' poll gets now, the feed it names included.
    assert _same_rows(seen.json["html"]) == _same_rows(_poll())
    assert f'data-live-feed="{seen.id}"' in seen.json["html"]
    first.close()
    second.close()


def test_a_waiting_match_filling_up_starts_in_the_list_and_a_move_alone_is_not_pushed(server):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(game="silkroad", players=[alice, None], created_by=alice.user)
    assert match.status == MatchStatus.PENDING
    stream = open_stream(server, [_feed("?status=running")])
    waiting = open_stream(server, [_feed("?status=pending")])
    services.join_match(match_id=match.pk, user=bob.user)
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING

    started = _event_showing(stream, f'href="/matches/{match.pk}/"')
    assert _same_rows(started.json["html"]) == _same_rows(_poll("?status=running"))
    # ... and it left the waiting list.
    gone = waiting.next_event()
    assert gone is not None and f'href="/matches/{match.pk}/"' not in gone.json["html"]
    # A move changes no list by itself: the "Moves" column follows at the next change.
    _move(match, [alice, bob])
    assert stream.next_event(timeout=1.5) is None
    stream.close()
    waiting.close()


def test_an_aborted_match_is_shown_aborted(server):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(game="silkroad", players=[alice, bob], seed=5)
    stream = open_stream(server, [_feed()])
    services.abort_match(match_id=match.pk, user=alice.user)
    event = _event_showing(stream, "status-aborted")
    assert f'href="/matches/{match.pk}/"' in event.json["html"]
    assert _same_rows(event.json["html"]) == _same_rows(_poll())
    stream.close()


def test_a_list_feed_that_cannot_be_is_refused(server):
    for spec, status in [("matches:-:chess:1@x", 404), ("matches:won:-:1@x", 400),
                         ("matches:-:-:0@x", 400), ("matches:-:-:x@x", 400),
                         ("matches:-:-@x", 400), ("matches:-:-:1:2@x", 400)]:  # fmt: skip
        stream = open_stream(server, [spec])
        assert stream.status == status, spec
        stream.close()
