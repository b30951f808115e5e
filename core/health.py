"""Checks behind /health/: the database, the broker, the cache and the worker heartbeat.

Only the database is essential: without it nothing can be served (HTTP 503).
Without the broker, the cache or a recent heartbeat the site still serves pages
and API reads from the database, so those make the status "degraded" (HTTP 200)
and are listed under "down"."""

from __future__ import annotations

import secrets

from django.core.cache import cache, caches
from django.db import connection
from django.utils import timezone

from config.celery import app as celery_app
from config.settings.components import broker_kind
from operations import selectors as operations_selectors


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


def check_worker(database_ok: bool) -> dict:
    """A worker is up while its own thread keeps writing its `WorkerHeartbeat` row
    (operations/celery_hooks.py): read as the operations page reads it, from the database,
    so the check needs neither the cache nor beat."""
    if not database_ok:  # reported under "database"; a second connection attempt would wait
        return {"ok": False, "last_heartbeat": None, "error": "database unavailable"}
    try:
        seen = operations_selectors.workers(timezone.now())
    except Exception as exc:  # the database went away since its check
        return {"ok": False, "last_heartbeat": None, "error": str(exc)}
    last = operations_selectors.last_heartbeat(seen)
    ok = any(w.state == "live" for w in seen)
    report = {"ok": ok, "last_heartbeat": last.isoformat() if last else None}
    if not ok:
        within = int(operations_selectors.LIVE_WITHIN.total_seconds())
        report["error"] = f"no running worker sent a heartbeat in the last {within} s"
    return report


def health_report() -> dict:
    checks = {"database": check_database(), "broker": check_broker(), "cache": check_cache()}
    checks["worker"] = check_worker(checks["database"]["ok"])
    down = [name for name, check in checks.items() if not check["ok"]]
    status = "error" if not checks["database"]["ok"] else "degraded" if down else "ok"
    return {
        "status": status,
        "down": down,
        **checks,
        "worker_heartbeat": checks["worker"]["last_heartbeat"],
    }
