"""Start a real Celery worker process on the database Django is connected to.

Used by the integration tests (on the test database) and the stack benchmark."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def current_database_url() -> str:
    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{s['NAME']}"
    user = s.get("USER") or ""
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    return f"postgres://{auth}{s.get('HOST') or '127.0.0.1'}:{s.get('PORT') or 5432}/{s['NAME']}"


def project_env(settings_module: str, **extra: str) -> dict:
    """The environment for a child process of the project on this process's database,
    var/ folder and (if any) Redis."""
    env = dict(os.environ)
    env.update(DJANGO_SETTINGS_MODULE=settings_module, DATABASE_URL=current_database_url(),
               VAR_DIR=str(settings.VAR_DIR), **extra)  # fmt: skip
    if settings.REDIS_URL:
        env["REDIS_URL"] = settings.REDIS_URL
    return env


@contextmanager
def process_group(args: list[str], env: dict, log_path: Path):
    """Run `args` in its own process group, output appended to `log_path`; on exit
    stop the whole group (TERM, then KILL after 20 s)."""
    with open(log_path, "a+") as log:
        proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)  # fmt: skip
        try:
            yield proc
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=10)


@contextmanager
def celery_worker(
    *,
    beat: bool = False,
    extra_env: dict | None = None,
    settings_module: str = "config.settings.test",
):
    """Start `celery worker` (optionally with embedded beat) on the current database."""
    env = project_env(settings_module, MATCH_STALLED_S="2", **(extra_env or {}))
    args = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
            "--without-gossip", "--without-mingle", "--loglevel=WARNING"]  # fmt: skip
    if beat:
        schedule = Path(settings.VAR_DIR) / f"beat-{os.getpid()}-{time.time_ns()}"
        args += ["-B", "--scheduler", "celery.beat:PersistentScheduler", "-s", str(schedule)]
    with process_group(args, env, Path(settings.VAR_DIR) / f"worker-{os.getpid()}.log") as proc:
        _wait_until_ready(proc)
        yield proc


def _wait_until_ready(proc: subprocess.Popen, timeout: float = 90) -> None:
    """A task round trip: the worker is consuming our queue (start-up can take seconds)."""
    from config.celery import app

    result = app.send_task("games.tasks.ping", args=[1])
    deadline = time.monotonic() + timeout
    while not result.ready():
        if proc.poll() is not None:
            raise RuntimeError(f"the Celery worker exited with {proc.returncode} while starting")
        if time.monotonic() > deadline:
            raise RuntimeError("the Celery worker did not answer within 90 s")
        time.sleep(0.1)
    result.forget()


def kill_hard(proc: subprocess.Popen) -> None:
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)


def wait_for(predicate, *, timeout: float, what: str, interval: float = 0.2, worker=None):
    """Poll `predicate` until it is truthy; fail early if the given worker process died."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        if worker is not None and worker.poll() is not None:
            raise AssertionError(
                f"the worker died (exit {worker.returncode}) while waiting for {what}; see {worker.args}"
            )
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")
