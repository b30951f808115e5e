"""`make run`'s supervisor (python -m config.worker_process run): web, the two workers
and beat start, the address is printed once the server answers, and a TERM to the process
group (what make and a terminal's Ctrl-C send) stops all of them."""

from __future__ import annotations

import http.client
import logging
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from config.log_filters import RoutineBeatLinesAtDebug, RoutineTaskLinesAtDebug
from tests.processes import groups_alive, start_supervisor


def _wait_for_line(path: Path, text: str, proc: subprocess.Popen, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out = path.read_text()
        if text in out:
            return out
        if proc.poll() is not None:
            pytest.fail(f"the supervisor exited with {proc.returncode}:\n{out[-3000:]}")
        time.sleep(0.2)
    pytest.fail(f"no {text!r} within {timeout} s:\n{path.read_text()[-3000:]}")


@pytest.mark.django_db(transaction=True)  # web, worker and beat use the test database
def test_make_run_supervisor_serves_then_stops_everything_on_term(tmp_path):
    proc, log, port = start_supervisor(tmp_path, "run")
    try:
        address = f"Serving http://127.0.0.1:{port}/"
        text = _wait_for_line(log, address, proc, timeout=90)
        # Printed only once the server answers: it answers now, at once.
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/health/")
        assert conn.getresponse().status == 200
        conn.close()
        assert text.count(address) == 1
        started = next(line for line in text.splitlines() if line.startswith("started "))
        pgids = {int(word.strip(",")) for word in started.split()[1:] if word.strip(",").isdigit()}
        assert len(pgids) == 4 and groups_alive(pgids) == pgids
        _wait_for_line(log, "beat: Starting", proc, timeout=60)
        time.sleep(3)  # a beat tick or two: the sweep runs every 2 s

        os.killpg(proc.pid, signal.SIGTERM)  # as `kill -TERM -<pgid of make>` would
        returncode = proc.wait(timeout=10)
        deadline = time.monotonic() + 1
        while groups_alive(pgids) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    output = log.read_text()
    assert returncode == 0, output[-3000:]
    assert groups_alive(pgids) == set()
    assert "stopped web, worker, worker-heavy and beat" in output
    assert "restarting" not in output  # nothing died on the way
    assert "Segmentation fault" not in output
    assert "Sending due task" not in output  # routine beat lines are DEBUG


def _record(name: str, msg: str, args=None) -> logging.LogRecord:
    return logging.LogRecord(name, logging.INFO, __file__, 1, msg, args, None)


def test_routine_beat_and_sweep_lines_become_debug():
    beat_logger = logging.getLogger("celery.beat")
    old = beat_logger.level
    try:
        beat_logger.setLevel(logging.INFO)
        routine = _record("celery.beat", "Scheduler: Sending due task %s (%s)", ("a", "b"))
        assert RoutineBeatLinesAtDebug().filter(routine) is False
        assert routine.levelno == logging.DEBUG
        assert RoutineBeatLinesAtDebug().filter(_record("celery.beat", "beat: Starting...")) is True
        beat_logger.setLevel(logging.DEBUG)
        assert RoutineBeatLinesAtDebug().filter(
            _record("celery.beat", "Scheduler: Sending due task x (y)")
        )
    finally:
        beat_logger.setLevel(old)
    tasks = RoutineTaskLinesAtDebug(tasks=["games.tasks.sweep_matches"])
    sweep = _record("celery.app.trace", "Task %(name)s[%(id)s] received",
                    {"name": "games.tasks.sweep_matches", "id": "1"})  # fmt: skip
    other = _record("celery.app.trace", "Task %(name)s[%(id)s] received",
                    {"name": "games.tasks.play_bot_matches", "id": "2"})  # fmt: skip
    logging.getLogger("celery.app.trace").setLevel(logging.INFO)
    try:
        assert tasks.filter(sweep) is False and sweep.levelno == logging.DEBUG
        assert tasks.filter(other) is True and other.levelno == logging.INFO
    finally:
        logging.getLogger("celery.app.trace").setLevel(logging.NOTSET)
