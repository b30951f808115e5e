"""/health/ latency with server-sent-event streams open, against the production web server.

Starts gunicorn with the production configuration (config/gunicorn.conf.py: uvicorn
workers serving config/asgi.py, where the turn streams are pushed without a thread each;
production settings) on the database and Redis of the environment
(PostgreSQL + Redis with DATABASE_URL / REDIS_URL; SQLite + folder broker
otherwise), then:

1. idle: a few client threads ask /health/ and the p95 is taken;
2. `--streams` bot accounts (each with its own API token) open
   `/api/me/turns/stream/?seconds=40` as EventSource does; the same /health/ load is
   measured again while they are open;
3. past gunicorn's worker timeout (30 s) every stream is checked to be still
   connected, then to be ended by the server when its 40 s are over.

Idle is measured half before the streams open and half after they end, so that a
busy spell of the shared machine hits both phases alike. Prints both p95 values and their ratio (the goal: at most 2) and writes
var/bench/stream_health.json. The bot accounts are deleted afterwards.

    python -m benchmarks.stream_health [--quick] [--streams 50] [--requests 50]
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.common import config_from_argv, db_and_broker, setup_django, write_json
from benchmarks.standings_latency import _measure, summarise


@dataclass(frozen=True)
class StreamBenchConfig:
    streams: int = 50
    clients: int = 4
    """Threads asking /health/ at once, each on its own keep-alive connection."""
    requests: int = 50
    """/health/ requests per client and phase."""
    workers: int = 2
    threads: int = 64
    timeout: int = 30
    """gunicorn's worker timeout (s); streams last up to 55 s."""
    stream_s: int = 40
    """How long each stream lasts (`?seconds=`); longer than `timeout` on purpose."""


QUICK = StreamBenchConfig(requests=15)


def create_stream_bots(n: int) -> tuple[str, list[str]]:
    """`n` bot accounts with tokens; returns their name prefix and the tokens."""
    from games import services

    prefix = f"stbench-{secrets.token_hex(3)}-"
    return prefix, [services.create_external_bot(name=f"{prefix}{i}")[1] for i in range(n)]


def delete_stream_bots(prefix: str) -> None:
    from django.contrib.auth import get_user_model

    from games.models import Player

    Player.objects.filter(name__startswith=prefix).delete()
    get_user_model().objects.filter(username__startswith=prefix).delete()


# ---- clients ---------------------------------------------------------------------
def open_stream(port: int, token: str, seconds: int, timeout: float = 30) -> socket.socket:
    """An SSE client (as EventSource asks): returns once the stream has begun."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.sendall(
        (
            f"GET /api/me/turns/stream/?seconds={seconds} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Token {token}\r\nAccept: text/event-stream\r\n\r\n"
        ).encode()
    )
    received = b""
    while b"retry:" not in received:
        chunk = sock.recv(4096)
        if not chunk:
            raise ConnectionError(f"stream closed before it began: {received[:200]!r}")
        received += chunk
    if not received.startswith(b"HTTP/1.1 200"):
        raise ConnectionError(f"stream refused: {received[:200]!r}")
    return sock


def still_connected(sock: socket.socket) -> bool:
    """Open (no end of stream and no reset seen), whatever data is waiting."""
    sock.setblocking(False)
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return False  # the server closed it
    except BlockingIOError:
        return True
    except OSError:
        return False


def wait_until_ended(sock: socket.socket, timeout: float) -> bool:
    """True when the server ends the stream (chunked body finished, or closed) in time."""
    sock.setblocking(True)
    sock.settimeout(timeout)
    tail = b""
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
            tail = (tail + data)[-16:]
            if tail.endswith(b"0\r\n\r\n"):  # the last chunk of a chunked response
                return True
    except OSError:
        return False


def measure_health(port: int, *, clients: int, requests: int) -> dict:
    return summarise(*_measure_health(port, clients=clients, requests=requests))


def _measure_health(port: int, *, clients: int, requests: int) -> tuple[list, Counter, float]:
    # The same keep-alive client threads as the standings benchmark.
    return _measure(port, "/health/", clients, requests, None)


# ---- the run ---------------------------------------------------------------------
def server_env(config: StreamBenchConfig, settings_module: str) -> dict:
    from config.worker_process import project_env

    return project_env(
        settings_module, DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), SECURE_COOKIES="0",
        SECURE_SSL_REDIRECT="0",  # plain HTTP on loopback
        LOG_LEVEL="WARNING", WEB_WORKERS=str(config.workers), WEB_THREADS=str(config.threads),
        WEB_TIMEOUT=str(config.timeout), WEB_ACCESS_LOG="", WEB_LOG_LEVEL="warning",
        EMAIL_URL="smtp://127.0.0.1:25",  # production settings need one; nothing is mailed
    )  # fmt: skip


def run(config: StreamBenchConfig, *, settings_module: str = "config.settings.production") -> dict:
    """Needs Django set up on a migrated database the server process can read."""
    from django.conf import settings

    from config.worker_process import gunicorn_process

    prefix, tokens = create_stream_bots(config.streams)
    log = Path(settings.VAR_DIR) / f"bench-stream-gunicorn-{os.getpid()}.log"
    streams: list[socket.socket] = []
    try:
        with gunicorn_process(server_env(config, settings_module), log) as port:
            measure_health(port, clients=config.clients, requests=5)  # warm-up
            # Idle is measured before the streams open and again after they close, half
            # each, so that a busy spell of the (shared) machine hits both phases alike.
            half = {"clients": config.clients, "requests": max(1, config.requests // 2)}
            before = _measure_health(port, **half)
            t0 = time.perf_counter()
            streams = [open_stream(port, token, config.stream_s) for token in tokens]
            opened_s = time.perf_counter() - t0
            busy = measure_health(port, clients=config.clients, requests=config.requests)
            # Past gunicorn's worker timeout: a sync worker would have been killed by now.
            time.sleep(max(0.0, t0 + config.timeout + 2 - time.perf_counter()))
            held = time.perf_counter() - t0
            connected = sum(still_connected(s) for s in streams)
            end_by = t0 + config.stream_s + 15
            ended = sum(
                wait_until_ended(s, max(0.1, end_by - time.perf_counter())) for s in streams
            )
            after = _measure_health(port, **half)
            idle = summarise(before[0] + after[0], before[1] + after[1], before[2] + after[2])
    finally:
        for s in streams:
            s.close()
        delete_stream_bots(prefix)
    ratio = busy["p95_ms"] / idle["p95_ms"] if idle["p95_ms"] and busy["p95_ms"] else None
    return {"config": asdict(config), "idle": idle, "streaming": busy, "p95_ratio": ratio,
            "streams_open_s": opened_s, "streams_held_s": held,
            "streams_connected": connected, "streams_ended": ended}  # fmt: skip


def format_report(result: dict, backend: str) -> str:
    c = result["config"]
    lines = [
        f"/health/ with turn streams open, on {backend}: gunicorn (uvicorn workers) {c['workers']}x"
        f"{c['threads']} threads (timeout {c['timeout']} s); {c['clients']} health clients x "
        f"{c['requests']} requests a phase",
        f"{'phase':<28} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}  statuses",
    ]
    for name, label in (("idle", "idle"), ("streaming", f"{c['streams']} streams open")):
        p = result[name]
        lines.append(f"{label:<28} {p['p50_ms'] or 0:>8.1f} {p['p95_ms'] or 0:>8.1f} "
                     f"{p['max_ms'] or 0:>8.1f}  {p['statuses']}")  # fmt: skip
    ratio = result["p95_ratio"]
    lines.append(f"p95 ratio (streams / idle): {f'{ratio:.2f}' if ratio else '-'}  (goal: <= 2)")
    lines.append(
        f"streams still connected after {result['streams_held_s']:.1f} s: "
        f"{result['streams_connected']}/{c['streams']} (opened in {result['streams_open_s']:.1f} s); "
        f"ended by the server after {c['stream_s']} s as asked: {result['streams_ended']}"
    )
    return "\n".join(lines)


def parse_config(argv: list[str] | None) -> StreamBenchConfig:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.stream_health",
                                     description=__doc__.splitlines()[0])  # fmt: skip
    parser.add_argument("--quick", action="store_true", help="fewer /health/ requests")
    names = ("streams", "clients", "requests", "workers", "threads", "timeout", "stream_s")
    return config_from_argv(
        parser, argv, default=StreamBenchConfig(), quick=QUICK, int_options=names
    )


def main(argv: list[str] | None = None) -> dict:
    config = parse_config(argv)
    setup_django()
    from django.conf import settings

    result = run(config)
    result["backend"] = db_and_broker(show_pool=True)
    print(format_report(result, result["backend"]))
    write_json(Path(settings.VAR_DIR) / "bench" / "stream_health.json", result)
    return result


if __name__ == "__main__":
    main()
