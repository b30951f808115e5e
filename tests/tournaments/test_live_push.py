"""The tournament page and the projector by push, through the production web server
(tests/live_server.py): the test writes through the services, commits, and reads what the
server's `/events/` stream sends (tournaments/live_feeds.py)."""

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.middleware.csrf import _unmask_cipher_token

from tests.games.factories import UserFactory
from tests.live_server import get, open_stream
from tests.tournaments.factories import tournament_with_bots
from tests.tournaments.result_fixtures import club_event, tables_of
from tournaments import services
from tournaments.services import overrides, results, versions
from tournaments.views import screen
from tournaments.views.tournaments import live_reader

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "s3cr3t" * 5 + "ab"  # a CSRF cookie's secret: 32 letters and digits
WIN = {"scores": [30, 10], "tiebreak": [1, 2]}
QUIET_S = 1.5  # how long "nothing comes" is waited for


@pytest.fixture
def streams():
    opened = []

    def open_(*args, **kwargs):
        stream = open_stream(*args, **kwargs)
        opened.append(stream)
        return stream

    yield open_
    for stream in opened:
        stream.close()


def _version(t, user=None) -> str:
    return live_reader(t.pk, user or AnonymousUser())[0]


def _feed(t, version=None) -> str:
    return f"tournament:{t.pk}@{version or _version(t)}"


def _tokens(html: str) -> list[str]:
    return re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)


def _session(client, user) -> dict:
    client.force_login(user)
    return {"sessionid": client.cookies["sessionid"].value, "csrftoken": SECRET}


def test_a_spectator_is_pushed_the_new_fragment_when_a_result_is_entered(server, streams):
    t, _players = club_event(n=4, rounds=2)
    spec = f"tournament:{t.pk}"
    stream = streams(server, [_feed(t)])
    assert stream.status == 200 and stream.headers["content-type"] == "text/event-stream"
    assert stream.next_event(QUIET_S) is None  # current: nothing to send

    results.set_result(table=tables_of(t, 1)[0], by=t.organiser, **WIN)
    event = stream.next_event()
    assert event is not None and event.name == spec
    now = _version(t)
    assert event.id == f"{spec}@{now}" and event.json["swap"] == "outerHTML"
    html = event.json["html"]
    assert f'data-live-feed="{spec}@{now}"' in html and f'"v": "{now}"' in html
    assert "(30)" in html  # the score at the table
    # Exactly what the fallback poll gets from the same server.
    status, polled = get(server, f"/tournaments/{t.pk}/live/")
    assert status == 200 and polled == html.encode()

    versions.announce(t.pk)  # announced, but nothing the page shows has changed
    assert stream.next_event(QUIET_S) is None


def test_organisers_get_their_forms_and_spectators_one_identical_copy(server, streams, client):
    organiser = UserFactory()
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2}, over_the_board=True,
                             auto_advance=False, organiser=organiser)  # fmt: skip
    rnd = services.start_tournament(tournament=t)  # paired, not started: her round controls
    cookies = _session(client, organiser)
    boss = streams(server, [_feed(t, _version(t, organiser))], cookies=cookies)
    first = streams(server, [_feed(t)])
    second = streams(server, [_feed(t)])
    assert boss.status == first.status == second.status == 200

    (a, _b), (c, _d) = overrides.snapshot(rnd)["tables"]
    overrides.swap(round_=rnd, first=a, second=c, by=organiser)
    theirs, one, other = boss.next_event(), first.next_event(), second.next_event()
    assert None not in (theirs, one, other)
    assert one.data == other.data and one.id == other.id  # one render, the same bytes
    assert "Start round" not in one.json["html"] and not _tokens(one.json["html"])
    assert theirs.id.endswith(".m") and theirs.id != one.id
    mine = theirs.json["html"]
    assert "Start round" in mine
    tokens = _tokens(mine)
    assert tokens and all(_unmask_cipher_token(token) == SECRET for token in tokens)


def test_the_projector_is_pushed_the_pairings_when_a_round_is_paired_and_started(server, streams):
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2}, over_the_board=True,
                             auto_advance=False)  # fmt: skip
    spec = f"screen:{t.pk}"
    stream = streams(server, [f"{spec}@{screen.screen_version(t.pk)}"])
    assert stream.status == 200 and stream.next_event(QUIET_S) is None

    rnd = services.start_tournament(tournament=t)  # round 1 paired
    event = stream.next_event()
    assert event is not None and event.name == spec
    html = event.json["html"]
    assert 'id="screen-live"' in html and "Table 2" in html and "status-pending" in html
    names = {str(s.entry.player) for tb in tables_of(t, 1) for s in tb.seats.all()}
    assert all(name in html for name in names)
    assert f'data-live-feed="{spec}@{screen.screen_version(t.pk)}"' in html

    services.start_round(round_=rnd)
    started = stream.next_event()
    assert started is not None and "status-playing" in started.json["html"]
    assert started.id == f"{spec}@{screen.screen_version(t.pk)}"


def test_a_reconnect_resumes_from_its_last_event_id(server, streams):
    t, _players = club_event(n=4, rounds=2)
    old = _version(t)
    results.set_result(table=tables_of(t, 1)[0], by=t.organiser, **WIN)
    now = _version(t)
    assert now != old

    # The page loaded at the old version; the browser comes back with the current one.
    current = streams(server, [_feed(t, old)], last_event_id=_feed(t, now))
    assert current.status == 200 and current.next_event(QUIET_S) is None

    # It comes back with an old one: the current fragment, once.
    behind = streams(server, [_feed(t, now)], last_event_id=_feed(t, old))
    event = behind.next_event()
    assert event is not None and event.id == _feed(t, now)
    assert f'data-live-feed="{_feed(t, now)}"' in event.json["html"]
    assert behind.next_event(QUIET_S) is None


def test_unknown_and_malformed_feeds_are_refused(server, streams):
    assert streams(server, ["tournament:999999@x"]).status == 404
    assert streams(server, ["screen:999999@x"]).status == 404
    assert streams(server, ["tournament:1:2@x"]).status == 400


def test_a_change_in_a_rolled_back_transaction_is_not_pushed(server, streams):
    t, _players = club_event(n=4, rounds=2)
    stream = streams(server, [_feed(t)])
    with pytest.raises(RuntimeError), transaction.atomic():
        results.set_result(table=tables_of(t, 1)[0], by=t.organiser, **WIN)
        raise RuntimeError("undone")
    assert stream.next_event(QUIET_S) is None
