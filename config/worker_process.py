"""Process groups: the `make run` supervisor, and a real Celery worker on the database
Django is connected to (for the integration tests and the benchmarks).

The child-process helpers (celery_worker, gunicorn_process, wait_for, process_group,
project_env) stay here, not under tests/: the `bot_tournament` management command and
the benchmarks start workers and servers with them, and neither may import tests/ (what
only the tests use is in tests/processes.py).

`python -m config.worker_process run --host H --port P` is what `make run` starts:
web (uvicorn serving config/asgi.py), a Celery worker for the default queue, one for the search bots'
queue (`worker-heavy`) and beat, each in its own process group. It prints the address
once the server answers, starts a worker or beat that died again (with back-off,
`restart_delay`), and on INT or TERM, or when the web server dies, stops them all
(TERM to each group, KILL what is left after `STOP_GRACE_S`)."""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager, suppress
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
    var/ folder and (if any) Redis; `extra` overrides any of them."""
    env = dict(os.environ)
    env.update(DJANGO_SETTINGS_MODULE=settings_module, DATABASE_URL=current_database_url(),
               VAR_DIR=str(settings.VAR_DIR))  # fmt: skip
    if settings.REDIS_URL:
        env["REDIS_URL"] = settings.REDIS_URL
    env.update(extra)
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
    queues: list[str] | None = None,
):
    """Start `celery worker` (optionally with embedded beat) on the current database,
    consuming `queues`: by default both the default queue and the search bots'
    (BOT_HEAVY_QUEUE)."""
    env = project_env(settings_module, MATCH_STALLED_S="2", **(extra_env or {}))
    queues = queues or [settings.CELERY_TASK_DEFAULT_QUEUE, settings.BOT_HEAVY_QUEUE]
    args = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
            "--without-gossip", "--without-mingle", "--loglevel=WARNING",
            "-Q", ",".join(queues)]  # fmt: skip
    if beat:
        schedule = Path(settings.VAR_DIR) / f"beat-{os.getpid()}-{time.time_ns()}"
        args += ["-B", "--scheduler", "celery.beat:PersistentScheduler", "-s", str(schedule)]
    with process_group(args, env, Path(settings.VAR_DIR) / f"worker-{os.getpid()}.log") as proc:
        _wait_until_ready(proc, queue=queues[0])
        yield proc


def _wait_until_ready(proc: subprocess.Popen, timeout: float = 90, *, queue: str) -> None:
    """A task round trip: the worker is consuming our queue (start-up can take seconds)."""
    from config.celery import app

    result = app.send_task("games.tasks.ping", args=[1], queue=queue)
    deadline = time.monotonic() + timeout
    while not result.ready():
        if proc.poll() is not None:
            raise RuntimeError(f"the Celery worker exited with {proc.returncode} while starting")
        if time.monotonic() > deadline:
            raise RuntimeError("the Celery worker did not answer within 90 s")
        time.sleep(0.1)
    result.forget()


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


# ---- the `make run` supervisor ------------------------------------------------------
STOP_GRACE_S = 6.0
"""TERM lets the worker finish its current task; whatever still runs after this is
killed, so the whole stop stays under 10 s (a bot task cut short is redone: late
acknowledgement on Redis, the match sweep on any broker)."""


# The search bots' worker (docker/entrypoint.sh worker-heavy says the same): a fresh pool
# process every 50 tasks (a search's memory goes back to the system), and a task over
# 60 s is asked to stop (SoftTimeLimitExceeded), killed at 90 s; its turn is redone by
# the match sweep.
# Its own node name, so the operations page tells the two workers of one machine apart.
HEAVY_WORKER_ARGS = ["-n", "heavy@%h", "--max-tasks-per-child=50", "--soft-time-limit=60",
                     "--time-limit=90"]  # fmt: skip


def stack_commands(host: str, port: int, python: str = sys.executable) -> dict[str, list[str]]:
    celery = [python, "-m", "celery", "-A", "config"]
    return {
        # The ASGI app (config/asgi.py): pages as before, and the live pages' push streams.
        "web": [python, "-m", "uvicorn", "config.asgi:application", "--host", host,
                "--port", str(port), "--lifespan", "on", "--timeout-graceful-shutdown", "5"],
        "worker": [*celery, "worker", "--loglevel=INFO", "-Q", settings.CELERY_TASK_DEFAULT_QUEUE,
                   f"--concurrency={settings.WORKER_CONCURRENCY}"],
        "worker-heavy": [*celery, "worker", "--loglevel=INFO", "-Q", settings.BOT_HEAVY_QUEUE,
                         f"--concurrency={settings.HEAVY_WORKER_CONCURRENCY}", *HEAVY_WORKER_ARGS],
        "beat": [*celery, "beat", "--loglevel=INFO"],
    }  # fmt: skip


# Started again when they die: the site goes on without them only half-working (no bot
# moves, time-outs or mails; no sweeps). The web server is not: its dying means
# the port is taken or the code does not load, which a restart does not mend, so it
# stops the rest and `make run` exits with the error.
RESTARTED = ("worker", "worker-heavy", "beat")
BACKOFF_FIRST_S = 1.0
BACKOFF_MAX_S = 30.0
HEALTHY_AFTER_S = 60.0
"""A process that ran this long before dying starts again after BACKOFF_FIRST_S."""


def restart_delay(failures: int) -> float:
    """Seconds before the `failures`-th restart in a row: 1, 2, 4 ... at most 30."""
    return min(BACKOFF_MAX_S, BACKOFF_FIRST_S * 2 ** max(failures - 1, 0))


# Who gets the TERM: the Celery worker stops its own pool processes (a TERM sent to
# them too makes them die mid-task, logged as errors), runserver's autoreloader does
# not stop the server process it started, so that one gets it group-wide.
SIGNAL_GROUP = {"web"}


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def http_answers(host: str, port: int, path: str = "/health/") -> bool:
    """The server answers HTTP at all (any status)."""
    try:
        conn = http.client.HTTPConnection(host, port, timeout=5)
        conn.request("GET", path)
        conn.getresponse().read()
        conn.close()
        return True
    except (OSError, http.client.HTTPException):
        return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


GUNICORN_CONF = ROOT / "config" / "gunicorn.conf.py"


@contextmanager
def gunicorn_process(env: dict, log_path: Path, *, timeout: float = 60):
    """The production web server (gunicorn with config/gunicorn.conf.py) on 127.0.0.1 and
    a free port, in its own process group, with `env` (see project_env); yields the port
    once it answers."""
    port = free_port()
    env = {**env, "WEB_BIND": f"127.0.0.1:{port}"}
    args = [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF), "config.asgi:application"]
    with process_group(args, env, log_path) as proc:
        deadline = time.monotonic() + timeout
        while not http_answers("127.0.0.1", port):
            if proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {proc.returncode}; see {log_path}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer within {timeout} s; see {log_path}")
            time.sleep(0.1)
        yield port


class Stack:
    """Start named commands in their own process groups; start those named in `restart`
    again when they die (back-off: `restart_delay`); stop them all on a signal or when
    any other one dies."""

    def __init__(self, commands: dict[str, list[str]], *, url: str, host: str, port: int,
                 restart: tuple[str, ...] = RESTARTED):  # fmt: skip
        self.commands, self.url, self.host, self.port = commands, url, host, port
        self.restart = restart
        self.procs: dict[str, subprocess.Popen] = {}
        self.started_at: dict[str, float] = {}
        self.failures: dict[str, int] = {}  # deaths in a row, each within HEALTHY_AFTER_S
        self.restart_at: dict[str, float] = {}  # dead, to start again at this time
        self.signals = 0

    def _on_signal(self, signum, frame) -> None:
        # Only note it: the main loop stops the children (a handler that signals its
        # own group would receive its own signal again).
        self.signals += 1

    def _start(self, name: str) -> subprocess.Popen:
        proc = subprocess.Popen(self.commands[name], cwd=ROOT, start_new_session=True)
        self.procs[name], self.started_at[name] = proc, time.monotonic()
        return proc

    def _died(self, name: str, now: float) -> None:
        """Note a restartable process's death and when to start it again."""
        proc = self.procs[name]
        # What it leaves in its group (the pool processes of a worker whose main process
        # was killed) must not go on beside its successor.
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        healthy = now - self.started_at[name] >= HEALTHY_AFTER_S
        self.failures[name] = 1 if healthy else self.failures.get(name, 0) + 1
        delay = restart_delay(self.failures[name])
        self.restart_at[name] = now + delay
        print(f"{name} (pid {proc.pid}) exited with {proc.returncode} after "
              f"{now - self.started_at[name]:.0f} s; restarting it in {delay:.0f} s",
              file=sys.stderr, flush=True)  # fmt: skip

    def run(self) -> int:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, self._on_signal)
        for name in self.commands:
            self._start(name)
        pids = ", ".join(f"{name} {proc.pid}" for name, proc in self.procs.items())
        print(f"started {pids} (Ctrl-C stops all)", flush=True)
        announced, failed = False, None
        while not self.signals:
            now = time.monotonic()
            for name, proc in self.procs.items():
                if name in self.restart_at:
                    if now >= self.restart_at[name]:
                        del self.restart_at[name]
                        print(f"restarted {name}: pid {self._start(name).pid}",
                              file=sys.stderr, flush=True)  # fmt: skip
                elif proc.poll() is not None:
                    if name not in self.restart:
                        failed = name
                        break
                    self._died(name, now)
            if failed:
                print(f"{failed} exited with {self.procs[failed].returncode}; stopping the rest",
                      file=sys.stderr, flush=True)  # fmt: skip
                break
            if not announced and http_answers(self.host, self.port):
                print(f"Serving {self.url}  (admin: admin/admin)", flush=True)
                announced = True
            time.sleep(0.2)
        took = self.stop()
        each = ", ".join(f"{n} {s:.1f} s" for n, s in self.stopped_after.items())
        names = list(self.procs)
        listed = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
        print(f"stopped {listed} in {took:.1f} s ({each})", flush=True)
        return 1 if failed else 0

    def stop(self) -> float:
        t0 = time.monotonic()
        for name, proc in self.procs.items():
            if proc.poll() is None:
                try:
                    if name in SIGNAL_GROUP:
                        os.killpg(proc.pid, signal.SIGTERM)
                    else:
                        proc.send_signal(signal.SIGTERM)
                except ProcessLookupError:
                    pass
        signals_at_stop = self.signals
        deadline = t0 + STOP_GRACE_S
        self.stopped_after: dict[str, float] = {}
        while time.monotonic() < deadline and self.signals <= signals_at_stop:
            for name, proc in self.procs.items():
                proc.poll()
                if name not in self.stopped_after and not _group_alive(proc.pid):
                    self.stopped_after[name] = time.monotonic() - t0
            if len(self.stopped_after) == len(self.procs):
                return time.monotonic() - t0
            time.sleep(0.05)
        # Out of patience, or asked twice: kill whatever is left.
        for name, proc in self.procs.items():
            if _group_alive(proc.pid):
                print(f"{name} still running after {time.monotonic() - t0:.1f} s: killed",
                      file=sys.stderr, flush=True)  # fmt: skip
                os.killpg(proc.pid, signal.SIGKILL)
        for proc in self.procs.values():
            proc.wait(timeout=10)
        return time.monotonic() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.worker_process")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="web, the two workers and beat, as `make run` does")
    run.add_argument("--host", default="127.0.0.1")
    run.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    stack = Stack(stack_commands(args.host, args.port), url=f"http://{shown}:{args.port}/",
                  host=args.host, port=args.port)  # fmt: skip
    return stack.run()


if __name__ == "__main__":
    sys.exit(main())
