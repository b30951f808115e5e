import pytest
from django.db import connection

from config.celery import app as celery_app

pytestmark = pytest.mark.django_db


def test_health_reports_database_and_broker(client):
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == {"ok": True, "vendor": connection.vendor}
    expected = "redis" if celery_app.conf.broker_url.startswith("redis") else "safefs"
    assert body["broker"]["transport"] == expected
    assert body["broker"]["ok"] is True


def test_health_is_503_when_broker_unreachable(client, monkeypatch):
    # A real connection attempt to a port where nothing listens.
    monkeypatch.setattr(celery_app.conf, "broker_url", "redis://127.0.0.1:1/0")
    response = client.get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["broker"]["ok"] is False
    assert body["database"]["ok"] is True
