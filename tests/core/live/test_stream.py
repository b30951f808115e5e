"""The push stream end to end: the production web server (gunicorn, uvicorn workers,
config/asgi.py) on the test database; moves made here through the services, announced
after their commit (Redis pub/sub on PostgreSQL + Redis, the LiveChange table on the
embedded defaults), and read back from `/events/` as a browser would."""

from __future__ import annotations

import random
import re
import time

import pytest
from django.test import Client

from core.live import backends
from core.models import LiveChange
from games import services
from games.engines.registry import ENGINES, get_engine
from games.models import MatchStatus
from tests.games.api.test_matches_api import _secrets_of
from tests.games.factories import HumanPlayerFactory, play_random_move
from tests.live_server import get, open_stream, push_server

pytestmark = pytest.mark.django_db(transaction=True)  # the server reads what was committed

RNG = random.Random(3)
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    # Small limits and a short life, so that the tests below can reach them.
    with push_server(tmp_path_factory.mktemp("push"), LIVE_MAX_STREAMS_PER_USER="3",
                     LIVE_MAX_STREAMS_PER_ADDRESS="12", LIVE_STREAM_MAX_S="14",
                     LIVE_KEEPALIVE_S="1") as url:  # fmt: skip
        yield url


def _table():
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(game="silkroad", players=[alice, bob], seed=904172633)
    return match, alice, bob


def _cookies(user) -> dict:
    client = Client()
    client.force_login(user)
    return {"sessionid": client.cookies["sessionid"].value}


def test_a_move_reaches_the_seated_player_and_the_spectators_without_polling(server):
    match, alice, bob = _table()
    start = f"{match.ply}-running"
    mine = open_stream(server, [f"match:{match.pk}:0@{start}"], cookies=_cookies(alice.user))
    watcher = open_stream(server, [f"match:{match.pk}@{start}"])
    other = open_stream(server, [f"match:{match.pk}@{start}"])
    assert (mine.status, watcher.status) == (200, 200)
    assert mine.headers["content-type"].startswith("text/event-stream")
    # Current when they opened: nothing is sent until something happens.
    assert watcher.next_event(timeout=1.0) is None
    match = play_random_move(match, [alice, bob], RNG)

    seen = watcher.next_event()
    assert seen is not None and seen.name == f"match:{match.pk}"
    assert seen.id == f"match:{match.pk}@{match.ply}-running"
    assert other.next_event().data == seen.data  # spectators share one render
    own = mine.next_event()
    assert own.id == f"match:{match.pk}:0@{match.ply}-running"
    # Each stream carries what its reader's own poll would get: her seat's panel for her,
    # the spectators' for the others (the hidden parts differ), and no secret of the state.
    body = Client()
    body.force_login(alice.user)
    poll_mine = body.get(f"/matches/{match.pk}/live/", {"seat": 0}).content.decode()
    poll_public = Client().get(f"/matches/{match.pk}/live/").content.decode()
    if own.json["swap"] == "outerHTML":
        assert CSRF.sub("", own.json["html"]) == CSRF.sub("", poll_mine)
    if seen.json["swap"] == "outerHTML":
        assert seen.json["html"] == poll_public
    assert poll_mine != poll_public
    for secret in _secrets_of(match):
        assert secret not in seen.data and secret not in own.data
    for stream in (mine, watcher, other):
        stream.close()


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_a_seated_stream_never_carries_another_seats_hidden_information(server, game):
    """The trust work's leak test, extended to the streams: her seat's stream, the other
    seat's and a spectator's, over a dozen decisions of each game."""
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(game=game, players=[alice, bob], seed=904172633)
    engine = get_engine(game)
    # Not her seat: refused, nothing streamed.
    refused = open_stream(server, [f"match:{match.pk}:1@x"], cookies=_cookies(alice.user))
    assert refused.status == 403
    streams = {
        0: open_stream(server, [f"match:{match.pk}:0@"], cookies=_cookies(alice.user)),
        1: open_stream(server, [f"match:{match.pk}:1@"], cookies=_cookies(bob.user)),
        None: open_stream(server, [f"match:{match.pk}@"]),
    }
    texts = {seat: [] for seat in streams}

    def read_all() -> None:
        for seat, stream in streams.items():
            event = stream.next_event()
            assert event is not None
            texts[seat].append(event.json["html"])

    read_all()  # the whole panel first (no version given): each from its own eyes
    match.refresh_from_db()
    state = engine.from_json(match.state)
    boards = {seat: engine.render_svg(engine.observation(state, seat)) for seat in streams}
    for seat in streams:
        assert boards[seat] in texts[seat][0]
        for other in streams:
            if boards[other] != boards[seat]:
                assert boards[other] not in texts[seat][0], (seat, other)
    secrets = set()
    for _ in range(12):
        secrets.update(_secrets_of(match))
        match = play_random_move(match, [alice, bob], RNG)
        if match.status != MatchStatus.RUNNING:
            break
        read_all()
    for seat, sent in texts.items():
        for secret in secrets:
            assert not [t for t in sent if secret in t], (seat, secret[:40])
    for stream in streams.values():
        stream.close()


def test_reconnecting_with_last_event_id_replays_exactly_the_missed_moves(server):
    match, alice, bob = _table()
    first = open_stream(server, [f"match:{match.pk}@{match.ply}-running"])
    match = play_random_move(match, [alice, bob], RNG)
    event = first.next_event()
    last_id = event.id
    first.close()  # the connection drops ...
    missed_from = match.ply
    for _ in range(3):  # ... while three decisions are made
        match = play_random_move(match, [alice, bob], RNG)
    resumed = open_stream(server, [f"match:{match.pk}@0-running"], last_event_id=last_id)
    catch_up = resumed.next_event()
    assert catch_up.id == f"match:{match.pk}@{match.ply}-running"
    html = catch_up.json["html"]
    if catch_up.json["swap"] == "none":  # a patch: the missed log lines, each once
        added = html.split('hx-swap-oob="afterbegin:#match-log">', 1)[1].split("</ol>", 1)[0]
        numbers = [int(n) for n in re.findall(r'<li[^>]*value="(\d+)"', added)]
        # The log numbers decisions from 1: the reader had decision 1 (ply 0), missed 2-4.
        assert sorted(numbers) == list(range(missed_from + 1, match.ply + 1))
    # Nothing more: every missed move came in that one message, none is repeated.
    assert resumed.next_event(timeout=1.0) is None
    current = open_stream(server, [f"match:{match.pk}@0-running"], last_event_id=catch_up.id)
    assert current.next_event(timeout=1.0) is None
    resumed.close()
    current.close()


def test_bad_requests_are_refused_with_a_reason(server):
    match, _alice, _bob = _table()
    for feeds, status in [([], 400), (["nonsense!"], 400), (["nofeed:1@x"], 404),
                          ([f"match:{match.pk + 999}@x"], 404), (["match:abc@x"], 400),
                          ([f"match:{match.pk}@x"] * 2, 400),
                          ([f"match:{match.pk}@a", "match:1@b", "match:2@c", "match:3@d",
                            "match:4@e"], 400)]:  # fmt: skip
        stream = open_stream(server, feeds)
        assert stream.status == status, feeds
        stream.close()
    assert get(server, "/events/?f=match:1@x&f=")[0] == 400


def test_streams_per_person_are_bounded_and_a_stream_ends_with_a_reconnect_hint(server):
    match, alice, _bob = _table()
    cookies = _cookies(alice.user)
    spec = f"match:{match.pk}@{match.ply}-running"
    held = [open_stream(server, [spec], cookies=cookies) for _ in range(3)]
    assert [s.status for s in held] == [200, 200, 200]
    fourth = open_stream(server, [spec], cookies=cookies)
    assert fourth.status == 429 and fourth.headers.get("retry-after")
    held[0].close()
    # A closed stream frees its place (the server notices the disconnect).
    for _ in range(20):
        again = open_stream(server, [spec], cookies=cookies)
        if again.status == 200:
            break
        time.sleep(0.2)
    assert again.status == 200
    # Idle: keep-alive comments, then after LIVE_STREAM_MAX_S the end, with a retry hint.
    watcher = held[1]
    with pytest.raises(ConnectionError):
        watcher.next_event(timeout=20.0)
    assert "keep-alive" in watcher.comments
    assert "the stream ends here; reconnecting resumes it" in watcher.comments
    for s in [*held, again]:
        s.close()


def test_the_backend_is_the_one_the_settings_choose(settings):
    expected = backends.RedisBackend if settings.REDIS_URL else backends.TableBackend
    assert isinstance(backends.current(), expected)


def test_the_wsgi_server_says_no_push_and_the_page_polls(client):
    match, _alice, _bob = _table()
    assert client.get("/events/", {"f": f"match:{match.pk}@x"}).status_code == 204
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'data-live-feed="match:{match.pk}@0-running"' in page
    assert match.status == MatchStatus.RUNNING


@pytest.mark.postgres_redis
def test_a_web_process_that_lost_redis_subscribes_again_and_misses_nothing(server, settings):
    import redis

    match, alice, bob = _table()
    stream = open_stream(server, [f"match:{match.pk}@{match.ply}-running"])
    assert stream.next_event(timeout=1.0) is None
    client = redis.Redis.from_url(settings.REDIS_URL)
    db = client.connection_pool.connection_kwargs.get("db", 0)
    # The web process's subscription connection: the pub/sub client on this database.
    ours = [c for c in client.client_list(_type="pubsub") if int(c["db"]) == int(db)]
    assert ours
    for c in ours:
        client.client_kill_filter(_id=c["id"])
    match = play_random_move(match, [alice, bob], RNG)  # published while nobody listens
    event = stream.next_event(timeout=10)
    assert event is not None and event.id == f"match:{match.pk}@{match.ply}-running"
    stream.close()


def test_the_embedded_mode_pushes_too(settings, tmp_path):
    """Without Redis (the embedded defaults, `make run`): the LiveChange table, read by the
    web process once per LIVE_TABLE_POLL_S for all its readers. Forced here so that the
    PostgreSQL + Redis run checks it as well."""
    settings.LIVE_BACKEND = "table"
    match, alice, bob = _table()
    with push_server(tmp_path, LIVE_BACKEND="table") as url:
        stream = open_stream(url, [f"match:{match.pk}@{match.ply}-running"])
        assert stream.next_event(timeout=1.0) is None
        match = play_random_move(match, [alice, bob], RNG)
        assert LiveChange.objects.filter(channel=f"match:{match.pk}").exists()
        event = stream.next_event()
        assert event is not None and event.id == f"match:{match.pk}@{match.ply}-running"
        stream.close()
