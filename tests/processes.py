"""Processes the tests start and stop, beyond what config.worker_process gives the
management commands and the benchmarks too (celery_worker, gunicorn_process, wait_for)."""

from __future__ import annotations

import os
import signal
import subprocess


def kill_hard(proc: subprocess.Popen) -> None:
    """KILL the process's whole group (as a crash would), then reap it."""
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)


def groups_alive(pgids: set[int]) -> set[int]:
    """Process-group ids among `pgids` that still have a (non-zombie) member."""
    from pathlib import Path

    alive = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, pgid = fields[0], int(fields[2])
        if pgid in pgids and state != "Z":
            alive.add(pgid)
    return alive


def start_supervisor(tmp_path, label: str) -> tuple[subprocess.Popen, object, int]:
    """`make run`'s supervisor on a free port with the embedded defaults' settings, in
    tmp_path, on queues of its own: (process, its log's path, port)."""
    import secrets
    import sys

    from config.worker_process import ROOT, free_port, project_env

    port = free_port()
    env = project_env("config.settings.dev", VAR_DIR=str(tmp_path),
                      CELERY_QUEUE=f"{label}-{secrets.token_hex(4)}",
                      BOT_HEAVY_QUEUE=f"{label}-heavy-{secrets.token_hex(4)}")  # fmt: skip
    log = tmp_path / "run.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "config.worker_process", "run", "--host", "127.0.0.1",
             "--port", str(port)],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    return proc, log, port
