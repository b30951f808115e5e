"""Checks behind /health/: the database and the broker answer."""

from __future__ import annotations

from django.core.cache import cache
from django.db import connection

from config.celery import app as celery_app
from config.settings.components import broker_kind
from games.tasks import HEARTBEAT_KEY


def check_database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return {"ok": True, "vendor": connection.vendor}
    except Exception as exc:  # any failure means unhealthy, whatever the driver raises
        return {"ok": False, "vendor": connection.vendor, "error": str(exc)}


def check_broker() -> dict:
    kind = broker_kind(celery_app.conf.broker_url)
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return {"ok": True, "transport": kind}
    except Exception as exc:
        return {"ok": False, "transport": kind, "error": str(exc)}


def health_report() -> dict:
    database = check_database()
    broker = check_broker()
    return {
        "status": "ok" if database["ok"] and broker["ok"] else "error",
        "database": database,
        "broker": broker,
        "worker_heartbeat": _last_heartbeat(),
    }


def _last_heartbeat() -> str | None:
    try:
        return cache.get(HEARTBEAT_KEY)
    except Exception:  # the cache being down is reported by the broker check
        return None
