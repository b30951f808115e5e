"""`make run`'s supervisor starts a worker, the heavy worker or beat again when it dies
(back-off 1, 2, 4 ... 30 s, back to 1 s after a minute of health), and stops everything
when the web server dies."""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from config.worker_process import ROOT, restart_delay, wait_for
from tests.processes import groups_alive, start_supervisor

PIDS = re.compile(r"\b(web|worker-heavy|worker|beat) (\d+)")


def _wait_for(path: Path, pattern: str, proc: subprocess.Popen, timeout: float) -> re.Match:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.search(pattern, path.read_text())
        if found:
            return found
        if proc.poll() is not None:
            pytest.fail(
                f"the supervisor exited with {proc.returncode}:\n{path.read_text()[-3000:]}"
            )
        time.sleep(0.1)
    pytest.fail(f"no {pattern!r} within {timeout} s:\n{path.read_text()[-3000:]}")


def _health_status(port: int) -> int | None:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/health/")
        status = conn.getresponse().status
        conn.close()
        return status
    except OSError:
        return None


def test_restart_delay_doubles_from_one_second_up_to_thirty():
    assert [restart_delay(n) for n in range(1, 8)] == [1, 2, 4, 8, 16, 30, 30]


@pytest.mark.django_db(transaction=True)  # web, workers and beat use the test database
def test_a_killed_worker_is_started_again_with_back_off_and_the_site_stays_up(tmp_path):
    proc, log, port = start_supervisor(tmp_path, "restart")
    try:
        _wait_for(log, r"Serving http://", proc, timeout=90)
        started = _wait_for(log, r"started .*", proc, timeout=1).group(0)
        pids = dict(PIDS.findall(started))
        old = int(pids["worker"])
        assert set(pids) == {"web", "worker", "worker-heavy", "beat"}

        os.killpg(old, signal.SIGKILL)  # the worker and its pool processes, as the OOM killer might
        new = int(_wait_for(log, r"restarted worker: pid (\d+)", proc, timeout=10).group(1))
        assert new != old and groups_alive({new}) and not groups_alive({old})
        assert re.search(rf"worker \(pid {old}\) exited with -9 .* restarting it in 1 s",
                         log.read_text())  # fmt: skip

        # Dead again at once: twice the wait.
        os.killpg(new, signal.SIGKILL)
        _wait_for(log, rf"worker \(pid {new}\) exited with -9 .* restarting it in 2 s", proc, 5)
        newer = int(_wait_for(log, rf"restarted worker: pid (?!{new}\b)(\d+)", proc, 10).group(1))
        assert groups_alive({newer})

        # The others were left alone, and the site still answers.
        for name in ("web", "worker-heavy", "beat"):
            assert groups_alive({int(pids[name])}), name
        # (Retried: runserver's autoreloader restarts it when a file of the checkout changes.)
        assert wait_for(lambda: _health_status(port) == 200, timeout=20, what="/health/ 200")

        os.killpg(proc.pid, signal.SIGTERM)
        returncode = proc.wait(timeout=15)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    output = log.read_text()
    assert returncode == 0, output[-3000:]
    assert "stopped web, worker, worker-heavy and beat" in output
    deadline = time.monotonic() + 2
    while groups_alive({newer}) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not groups_alive({newer})


def _run_stack(script: str, tmp_path: Path, timeout: float = 30) -> tuple[int, str, float]:
    """Run a Stack of stand-in commands in a child process: (exit code, output, seconds)."""
    code = textwrap.dedent(
        """
        import sys
        from config import worker_process as wp
        py = sys.executable
        """
    ) + textwrap.dedent(script)
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "VAR_DIR": str(tmp_path)})  # fmt: skip
    return done.returncode, done.stdout + done.stderr, time.monotonic() - t0


def test_back_off_doubles_while_it_keeps_dying_and_the_web_dying_stops_all(tmp_path):
    code, out, took = _run_stack(
        """
        stack = wp.Stack({
            "web": [py, "-c", "import time; time.sleep(4.5); raise SystemExit(3)"],
            "worker": [py, "-c", "raise SystemExit(5)"],
            "beat": [py, "-c", "import time; time.sleep(60)"],
        }, url="http://x/", host="127.0.0.1", port=1)
        sys.exit(stack.run())
        """,
        tmp_path,
    )
    assert code == 1, out
    delays = [int(d) for d in re.findall(r"worker \(pid \d+\) exited with 5 .* in (\d+) s", out)]
    assert delays[:3] == [1, 2, 4], out  # died at 0, ~1 and ~3 s; the web at 4.5 s
    assert "web exited with 3; stopping the rest" in out
    assert "stopped web, worker and beat" in out
    assert "beat still running" not in out  # it stopped on TERM, nothing had to be killed
    assert took < 15


def test_a_minute_of_health_brings_the_wait_back_to_one_second(tmp_path):
    code, out, _ = _run_stack(
        """
        import signal, threading, os
        wp.HEALTHY_AFTER_S = 0.5  # "a minute", shortened: each run lasts 0.8 s
        stack = wp.Stack({
            "web": [py, "-c", "import time; time.sleep(60)"],
            "worker": [py, "-c", "import time; time.sleep(0.8)"],
        }, url="http://x/", host="127.0.0.1", port=1)
        threading.Timer(6, lambda: os.kill(os.getpid(), signal.SIGTERM)).start()
        sys.exit(stack.run())
        """,
        tmp_path,
    )
    assert code == 0, out
    delays = re.findall(r"worker \(pid \d+\) exited with 0 .* in (\d+) s", out)
    assert len(delays) >= 3 and set(delays) == {"1"}, out
    assert "stopped web and worker" in out
