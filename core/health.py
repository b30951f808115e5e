"""Checks behind /health/: the database, the broker, the cache and the worker heartbeat.

Only the database is essential: without it nothing can be served (HTTP 503).
Without the broker, the cache or a recent heartbeat the site still serves pages
and API reads from the database, so those make the status "degraded" (HTTP 200)
and are listed under "down"."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.core.cache import cache, caches
from django.db import connection
from django.utils import timezone

from config.celery import app as celery_app
from config.settings.components import broker_kind
from games.tasks import HEARTBEAT_KEY

# Beat asks for a heartbeat every 30 s; three missed ones mean no worker is running tasks.
HEARTBEAT_STALE_AFTER = timedelta(seconds=90)


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
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0.2, timeout=2)
        return {"ok": True, "transport": kind}
    except Exception as exc:
        return {"ok": False, "transport": kind, "error": str(exc)}


def check_cache() -> dict:
    backend = type(caches["default"]).__name__
    available = getattr(cache, "available", None)
    if available is not None:  # the Redis cache that degrades: ask it for a real round trip
        ok = available()
        return {"ok": ok, "backend": backend} | ({} if ok else {"error": cache.last_error})
    probe, key = secrets.token_hex(4), "health:probe"
    try:
        cache.set(key, probe, timeout=30)
        ok = cache.get(key) == probe
    except Exception as exc:
        return {"ok": False, "backend": backend, "error": str(exc)}
    return {"ok": ok, "backend": backend} | ({} if ok else {"error": "value not kept"})


def check_worker(cache_ok: bool) -> dict:
    last = _last_heartbeat() if cache_ok else None
    fresh = False
    if last:
        try:
            fresh = timezone.now() - datetime.fromisoformat(last) < HEARTBEAT_STALE_AFTER
        except ValueError:
            fresh = False
    report = {"ok": fresh, "last_heartbeat": last}
    if not fresh:
        report["error"] = (
            "cache unavailable" if not cache_ok else "no worker heartbeat in the last 90 s"
        )
    return report


def health_report() -> dict:
    checks = {"database": check_database(), "broker": check_broker(), "cache": check_cache()}
    checks["worker"] = check_worker(checks["cache"]["ok"])
    down = [name for name, check in checks.items() if not check["ok"]]
    status = "error" if not checks["database"]["ok"] else "degraded" if down else "ok"
    return {
        "status": status,
        "down": down,
        **checks,
        "worker_heartbeat": checks["worker"]["last_heartbeat"],
    }


def _last_heartbeat() -> str | None:
    try:
        return cache.get(HEARTBEAT_KEY)
    except Exception:  # a cache that raises is reported by check_cache
        return None
