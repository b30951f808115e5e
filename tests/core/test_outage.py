"""PostgreSQL down: /health/ and the pages answer 503 within seconds instead of hanging,
and everything answers 200 again within 5 s of the database's return (issue #31).

The outage is real: a PostgreSQL cluster of the test's own (tests/throwaway_postgres.py),
migrated, served by a real gunicorn with the production config, then stopped with
`pg_ctl stop -m immediate` (as a crash would) and started again. It runs on both of CI's
passes, whatever DATABASE_URL the suite itself uses. Plus the statement time-out, on the
suite's own PostgreSQL."""

from __future__ import annotations

import http.client
import json
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.db.utils import OperationalError

from config.settings.components import database_config
from config.worker_process import ROOT, gunicorn_process, project_env
from core.db import allow_long_statements
from tests.throwaway_postgres import binaries, throwaway_cluster

HEALTH_WITHIN_S = 3.0
PAGE_WITHIN_S = 5.0
RECOVERED_WITHIN_S = 5.0


def _get(port: int, path: str, headers: dict | None = None) -> tuple[int, dict, bytes, float]:
    """Status, headers, body and seconds taken; a client that waits 30 s at most."""
    t0 = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        body = response.read()
        return response.status, response.headers, body, time.monotonic() - t0
    finally:
        conn.close()


def _until_ok(port: int, path: str, within: float) -> float:
    """Seconds until `path` answers 200 (asked again and again); fails after `within`."""
    t0 = time.monotonic()
    seen = []
    while time.monotonic() - t0 < within:
        try:
            status, _, _, _ = _get(port, path)
        except (OSError, http.client.HTTPException) as exc:
            status = type(exc).__name__
        if status == 200:
            return time.monotonic() - t0
        seen.append(status)
        time.sleep(0.1)
    raise AssertionError(f"{path} not 200 within {within} s of the restart: {seen}")


@pytest.fixture
def cluster():
    bin_dir = binaries()
    if bin_dir is None:
        # The suite needs PostgreSQL's server binaries (README, "Tests"): not a skip.
        pytest.fail("no PostgreSQL server binaries (initdb) on this machine")
    with throwaway_cluster(bin_dir) as started:
        yield started


def test_an_outage_answers_503_fast_and_recovers_within_seconds(cluster, tmp_path):
    cluster.create_database("caravan")
    url = cluster.url("caravan")
    env = project_env("config.settings.test", DATABASE_URL=url, WEB_WORKERS="1",
                      WEB_THREADS="8", WEB_ACCESS_LOG="")  # fmt: skip
    migrated = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert migrated.returncode == 0, migrated.stderr[-3000:]

    log = Path(settings.VAR_DIR) / f"outage-{tmp_path.name}.log"
    # A signed-in visitor's cookie: her session is read by a middleware (her time zone),
    # before any view, so the failure comes from there (handler500), not from a view.
    session = {"Cookie": f"sessionid={secrets.token_hex(16)}"}
    with gunicorn_process(env, log) as port:
        assert _get(port, "/health/")[0] == 200
        for path in ("/", "/matches/", "/api/matches/"):
            assert _get(port, path)[0] == 200, path
        assert _get(port, "/", session)[0] == 200

        cluster.stop("immediate")
        status, _, raw, health_s = _get(port, "/health/")
        assert status == 503 and health_s < HEALTH_WITHIN_S, (status, health_s)
        health = json.loads(raw)
        assert health["status"] == "error" and "database" in health["down"]
        assert health["database"]["ok"] is False and health["database"]["error"]

        status, headers, page, page_s = _get(port, "/", {"Accept-Language": "en"})
        assert status == 503 and page_s < PAGE_WITHIN_S, (status, page_s)
        assert b"Temporarily unavailable" in page and b"try again in a minute" in page
        assert headers["Retry-After"] == "60" and "no-store" in headers["Cache-Control"]
        status, _, page, signed_in_s = _get(port, "/matches/", session)
        assert status == 503 and signed_in_s < PAGE_WITHIN_S, (status, signed_in_s)
        assert b"Temporarily unavailable" in page
        status, _, page, czech_s = _get(port, "/matches/", {"Accept-Language": "cs"})
        assert status == 503 and b'<html lang="cs">' in page
        status, headers, raw, api_s = _get(port, "/api/matches/")
        assert status == 503 and api_s < PAGE_WITHIN_S, (status, api_s)
        assert headers["Content-Type"] == "application/json" and headers["Retry-After"] == "60"
        body = json.loads(raw)
        assert body["code"] == "unavailable" and "try again in a minute" in body["detail"]

        cluster.start()
        health_back_s = _until_ok(port, "/health/", RECOVERED_WITHIN_S)
        page_back_s = _until_ok(port, "/", RECOVERED_WITHIN_S)
        assert _get(port, "/matches/", session)[0] == 200
        assert _get(port, "/api/matches/")[0] == 200
    print(f"database down: /health/ 503 in {health_s:.2f} s, / 503 in {page_s:.2f} s, "
          f"signed-in /matches/ 503 in {signed_in_s:.2f} s, /api/matches/ 503 in {api_s:.2f} s; "
          f"after the restart /health/ 200 in {health_back_s:.2f} s, / 200 "
          f"{page_back_s:.2f} s later")  # fmt: skip
    logged = log.read_text()
    assert "Traceback" not in logged, logged[-3000:]


def test_the_statement_time_out_comes_from_the_settings(tmp_path):
    config = database_config("postgres://u@h:5432/d", tmp_path, statement_timeout_s=2.5)
    assert config["OPTIONS"]["options"] == "-c statement_timeout=2500"
    assert config["OPTIONS"]["connect_timeout"] == 2
    assert (
        "options"
        not in database_config("postgres://u@h/d", tmp_path, statement_timeout_s=0)["OPTIONS"]
    )
    sqlite = database_config("", tmp_path, statement_timeout_s=2.5)["OPTIONS"]
    assert "options" not in sqlite and "connect_timeout" not in sqlite


postgres_only = pytest.mark.skipif(
    not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
    reason="SQLite has no statement time-out",
)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_statement_over_the_time_out_is_cancelled():
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == f"{settings.DATABASE_STATEMENT_TIMEOUT_S:g}s"
    t0 = time.monotonic()
    with pytest.raises(OperationalError, match="statement timeout"), transaction.atomic():
        allow_long_statements(0.2)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_sleep(3)")
    assert time.monotonic() - t0 < 2
    with connection.cursor() as cursor:  # SET LOCAL: gone with its transaction
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == f"{settings.DATABASE_STATEMENT_TIMEOUT_S:g}s"


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_the_recompute_may_run_longer_than_the_default():
    with transaction.atomic():
        allow_long_statements()
        with connection.cursor() as cursor:
            cursor.execute("SHOW statement_timeout")
            shown = cursor.fetchone()[0]
    assert shown == f"{settings.DATABASE_RECOMPUTE_TIMEOUT_S / 60:g}min"
