"""The bot API's turn stream under ASGI (games/api/turn_stream.py) on the production web
server: authenticated as the API is (a token, or the session), refused as DRF refuses,
`?seconds=` honoured, and a `turns` event pushed when a decision starts to wait for the
bot, the same list GET /api/me/turns/ gives. A stream holds no thread of the server."""

from __future__ import annotations

import json
import random
import time

import pytest
from django.test import Client

from games import services
from games.engines.registry import get_engine
from games.models import Match
from tests.games.factories import HumanPlayerFactory
from tests.live_server import Stream, get, open_path, push_server

pytestmark = pytest.mark.django_db(transaction=True)  # the server reads what was committed

PATH = "/api/me/turns/stream/"
MOST = 10  # streams per account, in this server (it runs 8 threads for everything else)


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    with push_server(tmp_path_factory.mktemp("push-turns"),
                     LIVE_MAX_STREAMS_PER_USER=str(MOST)) as url:  # fmt: skip
        yield url


def _body(stream: Stream, timeout: float = 10.0) -> bytes:
    """Everything up to the end of a finished answer."""
    data, deadline = stream.buffer, time.monotonic() + timeout
    while time.monotonic() < deadline:
        stream.sock.settimeout(deadline - time.monotonic())
        chunk = stream.sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    raise AssertionError("the answer did not end")


def _token(name: str = "push-bot") -> tuple:
    player, key = services.create_external_bot(name=name)
    return player, {"Authorization": f"Token {key}"}


def _move(match: Match, user) -> None:
    engine = get_engine(match.game)
    legal = engine.legal_actions(engine.from_json(match.state))
    services.submit_action(match_id=match.pk, user=user, ply=match.ply,
                           action=random.Random(2).choice(legal))  # fmt: skip


def test_a_bot_gets_its_turns_pushed_when_a_decision_waits_for_it(server):
    bot, auth = _token()
    human = HumanPlayerFactory()
    stream = open_path(server, f"{PATH}?seconds=30", auth)
    assert stream.status == 200
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert (
        stream.headers["cache-control"] == "no-cache" and "content-encoding" not in stream.headers
    )
    first = stream.next_event()
    assert (first.name, first.json) == ("turns", [])  # at once, as the view did

    match = services.create_match(game="silkroad", players=[human, bot], seed=11)
    match.refresh_from_db()
    while match.to_act != 1:  # the person plays until the bot is to decide
        assert stream.next_event(timeout=0.3) is None  # nothing waits for the bot yet
        _move(match, human.user)
        match.refresh_from_db()
    event = stream.next_event()
    assert event is not None and event.name == "turns"
    assert [m["id"] for m in event.json] == [match.pk]
    listed = Client().get("/api/me/turns/", headers={"authorization": auth["Authorization"]})
    assert event.json == json.loads(listed.content)  # the list GET /api/me/turns/ gives

    # Its move: nothing waits any more, and the stream says so.
    _move(match, bot.user)
    match.refresh_from_db()
    if match.to_act != 1:
        assert stream.next_event().json == []
    stream.close()


def test_without_a_good_token_the_answer_is_drfs(server):
    for headers, status, code in [({}, 401, "not_authenticated"),
                                  ({"Authorization": "Token nonsense"}, 401, "authentication_failed")]:  # fmt: skip
        stream = open_path(server, PATH, headers)
        assert stream.status == status
        body = _body(stream)
        assert json.loads(body)["code"] == code
        assert stream.headers["www-authenticate"] == "Token"
        # Byte for byte the WSGI view's refusal (kept for the test client, WSGI servers).
        wsgi = Client().get(PATH, headers={"accept": "text/event-stream", **headers})
        assert (wsgi.status_code, wsgi.content) == (status, body)
        assert stream.headers["content-type"] == wsgi["Content-Type"]
        stream.close()


def test_seconds_is_honoured_and_checked(server):
    _bot, auth = _token()
    stream = open_path(server, f"{PATH}?seconds=abc", auth)
    assert stream.status == 400
    body = json.loads(_body(stream))
    assert body["code"] == "invalid" and "seconds" in body["fields"]
    stream.close()
    stream = open_path(server, f"{PATH}?seconds=0", auth)
    assert stream.status == 200 and _body(stream) == b"retry: 1000\n\n"
    stream.close()
    started = time.monotonic()
    stream = open_path(server, f"{PATH}?seconds=1.5", auth)
    assert stream.next_event().json == []
    with pytest.raises(ConnectionError):  # ended by the server after 1.5 s
        stream.next_event(timeout=5)
    assert 1.4 < time.monotonic() - started < 5
    stream.close()


def test_a_signed_in_person_follows_hers_through_the_session(server):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    client = Client()
    client.force_login(alice.user)
    cookie = {"Cookie": f"sessionid={client.cookies['sessionid'].value}"}
    stream = open_path(server, f"{PATH}?seconds=20", cookie)
    assert stream.status == 200 and stream.next_event().json == []
    match = services.create_match(game="silkroad", players=[alice, bob], seed=4)
    match.refresh_from_db()
    while match.to_act != 0:
        _move(match, bob.user)
        match.refresh_from_db()
    event = stream.next_event()
    assert [m["id"] for m in event.json] == [match.pk]
    stream.close()


def test_streams_hold_no_thread_and_are_bounded_per_account(server):
    _bot, auth = _token()
    held = [open_path(server, f"{PATH}?seconds=30", auth) for _ in range(MOST)]
    assert [s.status for s in held] == [200] * MOST
    assert all(s.next_event().name == "turns" for s in held)
    # More streams than the server has threads, and its pages still answer at once.
    started = time.monotonic()
    assert get(server, "/api/games/")[0] == 200
    assert time.monotonic() - started < 3
    extra = open_path(server, f"{PATH}?seconds=30", auth)
    assert extra.status == 429 and json.loads(_body(extra))["code"] == "throttled"
    for stream in [*held, extra]:
        stream.close()
