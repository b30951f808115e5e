"""Redis down: the site serves what the database can serve, throttles fail open,
/health/ says what is down. A real gunicorn (the production config) whose REDIS_URL
points at a port on 127.0.0.1 where nothing listens; on whichever database the
suite runs on."""

from __future__ import annotations

import http.client
import json
import logging
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from config.cache import ResilientRedisCache
from config.worker_process import gunicorn_process, project_env
from games import services
from games.models import Match
from operations.models import WorkerHeartbeat
from tests.games.factories import MatchFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments import services as tournament_services


def test_cache_degrades_to_misses_and_warns_once(caplog, refused_port):
    cache = ResilientRedisCache(f"redis://127.0.0.1:{refused_port}/0", {})
    with caplog.at_level(logging.WARNING, logger="config.cache"):
        ResilientRedisCache._last_warning = 0.0
        assert cache.get("k", "default") == "default"
        cache.set("k", 1)  # no error
        assert cache.add("k", 1) is False
        assert cache.get_many(["a", "b"]) == {}
        assert cache.has_key("k") is False
        assert cache.delete("k") is False
        assert cache.set_many({"a": 1}) == ["a"]
        assert cache.add_many(["a", "b"], 1) == ["a", "b"]  # leases: play rather than stall
        assert cache.get_or_set("k", 5) == 5
        with pytest.raises(ValueError):
            cache.incr("k")
        assert cache.available() is False
    assert "ConnectionError" in cache.last_error
    warnings = [r for r in caplog.records if r.name == "config.cache"]
    assert len(warnings) == 1  # rate-limited, not one per call
    assert "cache unavailable" in warnings[0].getMessage()


@pytest.mark.postgres_redis
def test_add_many_adds_only_the_free_keys_in_one_call():
    cache = ResilientRedisCache(settings.REDIS_URL, {"KEY_PREFIX": "add-many-test"})
    cache.delete_many(["a", "b", "c"])
    cache.set("b", "kept")
    assert cache.add_many(["a", "b", "c"], 1, timeout=30) == ["a", "c"]
    assert cache.get_many(["a", "b", "c"]) == {"a": 1, "b": "kept", "c": 1}
    assert cache.add_many(["a", "c"], 2) == []
    client = cache._cache.get_client(write=True)
    assert 0 < client.ttl(cache.make_key("a")) <= 30  # set with its expiry, in the same command
    cache.delete_many(["a", "b", "c"])
    free = cache.add_many(iter(["c", "a"]), 3, timeout=None)  # any iterable
    assert free == ["c", "a"]  # in the order given
    assert client.ttl(cache.make_key("c")) == -1  # no expiry
    with pytest.raises(ValueError):
        cache.add_many(["d"], 1, timeout=0)
    cache.delete_many(["a", "b", "c"])


def _get(port: int, path: str, headers: dict | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, body


def _post_json(port: int, path: str, body: dict, token: str) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", path, body=json.dumps(body), headers={
        "Content-Type": "application/json", "Authorization": f"Token {token}"})  # fmt: skip
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, json.loads(data or b"{}")


@pytest.mark.django_db(transaction=True)  # the server process reads what the test wrote
def test_pages_and_throttled_api_writes_work_with_redis_down(tmp_path, refused_port):
    tournament = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2})
    tournament_services.start_tournament(tournament=tournament)
    match = MatchFactory.create(seats=2)
    _, token = services.create_external_bot(name="redisless-bot")

    redis_url = f"redis://127.0.0.1:{refused_port}/0"
    env = project_env("config.settings.test", REDIS_URL=redis_url, WEB_WORKERS="1",
                      WEB_THREADS="4", WEB_ACCESS_LOG="")  # fmt: skip
    log = Path(settings.VAR_DIR) / f"redis-down-{tmp_path.name}.log"
    with gunicorn_process(env, log) as port:
        for path in ["/", f"/tournaments/{tournament.pk}/", f"/matches/{match.pk}/",
                     "/ratings/silkroad/", "/matches/", "/tournaments/"]:  # fmt: skip
            status, _ = _get(port, path)
            assert status == 200, path
        status, _ = _get(port, f"/tournaments/{tournament.pk}/live/", {"HX-Request": "true"})
        assert status == 200

        # A throttled write: the throttle cannot count, so it lets the request through,
        # and the match is created although its first bot task cannot be queued.
        before = Match.objects.count()
        status, body = _post_json(port, "/api/matches/",
                                  {"game": "silkroad", "seats": [{"bot": "random"}] * 2}, token)  # fmt: skip
        assert status == 201, body
        assert Match.objects.count() == before + 1

        # A worker's heartbeat is a database row: Redis down does not hide it.
        now = timezone.now()
        WorkerHeartbeat.objects.create(hostname="celery@redisless", pid=1, started_at=now,
                                       last_seen=now)  # fmt: skip
        status, raw = _get(port, "/health/")
        assert status == 200
        health = json.loads(raw)
        assert health["status"] == "degraded"
        assert set(health["down"]) == {"broker", "cache"}
        assert health["database"]["ok"] is True and health["worker"]["ok"] is True
        assert health["cache"]["ok"] is False and health["cache"]["error"]
    logged = log.read_text()
    assert "cache unavailable" in logged
    assert "Internal Server Error" not in logged


def test_health_is_503_only_when_the_database_is_down(tmp_path, refused_port):
    env = project_env("config.settings.test", WEB_WORKERS="1", WEB_THREADS="2",
                      WEB_ACCESS_LOG="")  # fmt: skip
    env["DATABASE_URL"] = f"postgres://nobody@127.0.0.1:{refused_port}/nothing"
    env["DB_POOL_TIMEOUT"] = "2"
    with gunicorn_process(env, tmp_path / "gunicorn.log") as port:
        status, raw = _get(port, "/health/")
    assert status == 503
    health = json.loads(raw)
    assert health["status"] == "error" and "database" in health["down"]
    assert health["database"]["ok"] is False
