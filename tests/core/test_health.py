from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from config.celery import app as celery_app
from core import health
from operations.models import WorkerHeartbeat

pytestmark = pytest.mark.django_db


def _worker(seen_ago: timedelta, *, pid: int = 1, stopped: bool = False) -> WorkerHeartbeat:
    """A worker's heartbeat row, as its thread writes it (operations/celery_hooks.py)."""
    seen = timezone.now() - seen_ago
    return WorkerHeartbeat.objects.create(hostname="celery@test", pid=pid, started_at=seen,
                                          last_seen=seen, stopped_at=seen if stopped else None)  # fmt: skip


def test_health_reports_database_broker_cache_and_worker(client):
    beat = _worker(timedelta(seconds=5))
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["down"] == []
    assert body["database"] == {"ok": True, "vendor": connection.vendor}
    expected = "redis" if celery_app.conf.broker_url.startswith("redis") else "safefs"
    assert body["broker"]["transport"] == expected
    assert body["broker"]["ok"] is True
    assert body["cache"]["ok"] is True
    assert body["worker"] == {"ok": True, "last_heartbeat": beat.last_seen.isoformat()}
    assert body["worker_heartbeat"] == beat.last_seen.isoformat()


def test_health_without_a_recent_heartbeat_is_degraded_not_down(client):
    old = _worker(timedelta(minutes=5))
    _worker(timedelta(seconds=5), pid=2, stopped=True)  # stopped cleanly: not running tasks
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded" and body["down"] == ["worker"]
    assert body["worker"]["last_heartbeat"] == old.last_seen.isoformat()
    assert "60 s" in body["worker"]["error"]


def test_health_with_no_worker_ever_seen_says_so(client):
    body = client.get("/health/").json()
    assert body["down"] == ["worker"]
    assert body["worker"]["last_heartbeat"] is None and body["worker_heartbeat"] is None


def test_the_worker_is_read_from_the_database_whatever_the_cache(client, settings):
    """A cache that keeps nothing is reported, and hides neither a live worker nor a lost one."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    beat = _worker(timedelta(seconds=5))
    body = client.get("/health/").json()
    assert body["down"] == ["cache"] and body["worker"]["ok"] is True
    WorkerHeartbeat.objects.filter(pk=beat.pk).update(last_seen=beat.last_seen - timedelta(hours=1))
    assert client.get("/health/").json()["down"] == ["cache", "worker"]


def test_the_page_and_health_agree_on_whether_a_worker_is_live(client, admin_client):
    """One selector behind both: a worker past the operations page's "live" limit is down."""
    from operations.selectors import LIVE_WITHIN

    _worker(LIVE_WITHIN + timedelta(seconds=2))
    assert client.get("/health/").json()["worker"]["ok"] is False
    assert (
        "0 workers seen in the last minute"
        in admin_client.get("/admin/operations/").content.decode()
    )
    WorkerHeartbeat.objects.update(last_seen=timezone.now() - LIVE_WITHIN + timedelta(seconds=5))
    assert client.get("/health/").json()["worker"]["ok"] is True
    assert (
        "1 worker seen in the last minute"
        in admin_client.get("/admin/operations/").content.decode()
    )


def test_with_the_database_down_the_worker_check_does_not_query_it(monkeypatch):
    monkeypatch.setattr(
        "operations.selectors.workers", lambda now=None: pytest.fail("queried the database")
    )
    assert health.check_worker(database_ok=False) == {
        "ok": False, "last_heartbeat": None, "error": "database unavailable"}  # fmt: skip


def test_health_with_broker_unreachable_is_degraded_200(client, monkeypatch):
    # A real connection attempt to a port where nothing listens.
    monkeypatch.setattr(celery_app.conf, "broker_url", "redis://127.0.0.1:1/0")
    response = client.get("/health/")
    assert response.status_code == 200  # pages are still served from the database
    body = response.json()
    assert body["status"] == "degraded"
    assert "broker" in body["down"]
    assert body["broker"]["ok"] is False and body["broker"]["error"]
    assert body["database"]["ok"] is True
