import pytest
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from config.celery import app as celery_app
from games.tasks import HEARTBEAT_KEY

pytestmark = pytest.mark.django_db


def test_health_reports_database_broker_cache_and_worker(client):
    cache.set(HEARTBEAT_KEY, timezone.now().isoformat(), timeout=60)
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["down"] == []
    assert body["database"] == {"ok": True, "vendor": connection.vendor}
    expected = "redis" if celery_app.conf.broker_url.startswith("redis") else "safefs"
    assert body["broker"]["transport"] == expected
    assert body["broker"]["ok"] is True
    assert body["cache"]["ok"] is True
    assert body["worker"]["ok"] is True and body["worker_heartbeat"]


def test_health_without_a_recent_heartbeat_is_degraded_not_down(client):
    old = (timezone.now() - timezone.timedelta(minutes=5)).isoformat()
    cache.set(HEARTBEAT_KEY, old, timeout=60)
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded" and body["down"] == ["worker"]
    assert body["worker"]["last_heartbeat"] == old and "90 s" in body["worker"]["error"]


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
