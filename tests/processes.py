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
