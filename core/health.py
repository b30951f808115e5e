"""Checks behind /health/: the database, the broker, the cache and the worker heartbeat.

Only the database is essential: without it nothing can be served (HTTP 503).
Without the broker, the cache or a recent heartbeat the site still serves pages
and API reads from the database, so those make the status "degraded" (HTTP 200)
and are listed under "down".

It answers within HEALTH_BUDGET_S whatever is down: the database check waits at most the
pool's (or the connection's) 2 s time-out, and the broker and cache checks run beside it
in threads, each given what is left of the budget."""

from __future__ import annotations

import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from django.core.cache import caches
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


def check_cache(store=None) -> dict:
    """`store`: the cache backend to probe (the request thread's, when run in a thread)."""
    if store is None:
        store = caches["default"]
    backend = type(store).__name__
    available = getattr(store, "available", None)
    if available is not None:  # the Redis cache that degrades: ask it for a real round trip
        ok = available()
        return {"ok": ok, "backend": backend} | ({} if ok else {"error": store.last_error})
    probe, key = secrets.token_hex(4), "health:probe"
    try:
        store.set(key, probe, timeout=30)
        ok = store.get(key) == probe
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


HEALTH_BUDGET_S = 2.5
# Threads for the broker and cache checks, kept between requests; a check that hangs past
# its budget keeps its thread, so later checks are reported as not answering, not waited for.
_checks = ThreadPoolExecutor(max_workers=4, thread_name_prefix="health")


def _in_thread(future, started: float, what: str, **about) -> dict:
    try:
        return future.result(timeout=max(0.0, started + HEALTH_BUDGET_S - time.monotonic()))
    except FutureTimeout:
        return {"ok": False, **about, "error": f"{what} did not answer within {HEALTH_BUDGET_S} s"}


def health_report() -> dict:
    started = time.monotonic()
    # The database and the worker rows in this thread (its connection, and in tests its
    # transaction); the others beside them.
    store = caches["default"]
    broker = _checks.submit(check_broker)
    cache_check = _checks.submit(check_cache, store)
    database = check_database()
    checks = {
        "database": database,
        "broker": _in_thread(broker, started, "the broker",
                             transport=broker_kind(celery_app.conf.broker_url)),
        "cache": _in_thread(cache_check, started, "the cache", backend=type(store).__name__),
    }  # fmt: skip
    checks["worker"] = check_worker(checks["database"]["ok"])
    down = [name for name, check in checks.items() if not check["ok"]]
    status = "error" if not checks["database"]["ok"] else "degraded" if down else "ok"
    return {
        "status": status,
        "down": down,
        **checks,
        "worker_heartbeat": checks["worker"]["last_heartbeat"],
    }
