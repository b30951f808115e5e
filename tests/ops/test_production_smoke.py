"""The production stack, natively: the docker entrypoint's roles (web, worker,
worker-heavy, beat) with production settings on PostgreSQL + Redis, static files
collected and served by whitenoise under their hashed names, and a built-in-bot match
created through the API played to its end by the worker."""

from __future__ import annotations

import http.client
import json
import os
import secrets
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import pytest

from config.worker_process import ROOT, free_port, http_answers, process_group, project_env
from games import services
from tests.live_server import open_stream

pytestmark = pytest.mark.postgres_redis

ENTRYPOINT = ROOT / "docker" / "entrypoint.sh"


def _request(port: int, method: str, path: str, body: dict | None = None,
             token: str | None = None) -> tuple[int, dict, bytes]:  # fmt: skip
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Token {token}"
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, data


def _until(predicate, timeout: float, what: str, procs: dict, logs: Path):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        for name, proc in procs.items():
            if proc.poll() is not None:
                pytest.fail(f"{name} exited with {proc.returncode} while waiting for {what}:\n"
                            f"{(logs / f'{name}.log').read_text()[-3000:]}")  # fmt: skip
        time.sleep(0.5)
    dump = "\n".join(f"--- {p.name}\n{p.read_text()[-2000:]}" for p in sorted(logs.glob("*.log")))
    pytest.fail(f"timed out after {timeout} s waiting for {what}\n{dump}")


@pytest.mark.django_db(transaction=True)  # the stack shares the test database
def test_entrypoint_roles_serve_pages_static_files_and_finish_a_bot_match(tmp_path):
    port = free_port()
    env = project_env(
        "config.settings.production", VAR_DIR=str(tmp_path), SECRET_KEY=secrets.token_urlsafe(50),
        SECURE_COOKIES="false", SECURE_SSL_REDIRECT="false",  # plain HTTP on loopback
        EMAIL_URL="smtp://127.0.0.1:25",  # production needs one; no mail is sent here
        WEB_BIND=f"127.0.0.1:{port}", WEB_WORKERS="1", WEB_THREADS="8",
        WORKER_CONCURRENCY="1", CELERY_QUEUE=f"smoke-{secrets.token_hex(4)}",
        BOT_HEAVY_QUEUE=f"smoke-heavy-{secrets.token_hex(4)}",
        PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}",
    )  # fmt: skip
    env.pop("DEBUG", None)
    _, token = services.create_external_bot(name="smoke-bot")

    with ExitStack() as stack:
        procs = {}

        def start(role: str) -> None:
            procs[role] = stack.enter_context(
                process_group(["sh", str(ENTRYPOINT), role], env, tmp_path / f"{role}.log")
            )

        start("worker")
        start("worker-heavy")
        start("beat")
        # As the image build does (and while the worker and beat boot):
        collect = subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput"],
                                 cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)  # fmt: skip
        assert collect.returncode == 0, collect.stderr
        manifest = json.loads((tmp_path / "staticfiles" / "staticfiles.json").read_text())["paths"]
        start("web")
        _until(
            lambda: http_answers("127.0.0.1", port), 120, "the web role to serve", procs, tmp_path
        )

        status, _, page = _request(port, "GET", "/")
        assert status == 200 and b"<html" in page.lower()
        hashed = manifest["css/site.css"]
        assert hashed != "css/site.css"  # a content-hashed name
        status, headers, css = _request(port, "GET", f"/static/{hashed}")
        assert status == 200 and css == (ROOT / "static" / "css" / "site.css").read_bytes()
        assert "immutable" in headers.get("cache-control", "")  # whitenoise: cache forever

        status, _, body = _request(port, "GET", "/health/")
        report = json.loads(body)
        assert status == 200 and report["database"]["vendor"] == "postgresql"
        assert report["database"]["ok"] and report["cache"]["ok"]
        assert report["broker"]["ok"] and report["broker"]["transport"] == "redis"

        status, _, body = _request(port, "POST", "/api/matches/", {
            "game": "silkroad", "seats": [{"bot": "random"}, {"bot": "random"}], "seed": 5,
        }, token=token)  # fmt: skip
        assert status == 201, body
        match_id = json.loads(body)["id"]

        def finished():
            _, _, body = _request(port, "GET", f"/api/matches/{match_id}/")
            match = json.loads(body)
            return match["status"] == "finished" and match

        match = _until(finished, 120, f"match {match_id} to finish", procs, tmp_path)
        assert match["ply"] > 0
        # The push endpoint through the production server: a page that showed the match
        # at its start is sent the finished panel at once.
        stream = open_stream(f"http://127.0.0.1:{port}", [f"match:{match_id}@0-running"])
        assert stream.status == 200
        event = stream.next_event(timeout=20)
        stream.close()
        assert event.id.startswith(f"match:{match_id}@{match['ply']}-finished-")
        assert 'id="match-live"' in event.json["html"]

        # The worker records its own heartbeat every 15 s: all up.
        def healthy():
            status, _, body = _request(port, "GET", "/health/")
            return status == 200 and json.loads(body)["status"] == "ok"

        _until(healthy, 90, "/health/ to report everything up", procs, tmp_path)
    web_log = (tmp_path / "web.log").read_text()
    assert "No migrations to apply" in web_log or "Applying" in web_log  # the web role migrated
