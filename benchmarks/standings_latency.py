"""Latency of the live standings fragment under concurrent viewers, as a ratio to /health/.

A Swiss tournament (64 entrants on four-seat tables by default, four rounds
recorded and the fifth half done, results typed in as over-the-board tables)
is set up through the services on the configured database (SQLite by default,
PostgreSQL + Redis with DATABASE_URL / REDIS_URL). A real gunicorn server
(gthread workers, as in production but with threads) serves the project in a
subprocess, and 50 client threads, each on its own keep-alive connection, ask
for the same number of requests from three endpoints in turn:

- ``/health/``: the baseline (two small database queries, the second the workers'
  heartbeats, a cache round trip and a broker check);
- the standings fragment, ``/tournaments/<pk>/live/`` with ``HX-Request``, as
  htmx fetches it on a first visit (a full render);
- the same with ``If-None-Match``: idle viewers polling every 2 s, who should
  get a 304.

Prints p50/p95 for each and p95(fragment) / p95(health); the target is a
small ratio (about 3 or less). The tournament and its players are deleted
afterwards; results are written to var/bench/standings_latency.json.

    python -m benchmarks.standings_latency [--quick] [--clients 50] [--requests 20]
"""

from __future__ import annotations

import argparse
import http.client
import math
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.common import config_from_argv, setup_django, write_json

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class BenchConfig:
    entrants: int = 64
    table_size: int = 4
    rounds: int = 5
    """Swiss rounds; all but the last are recorded in full, the last half-way (a live event)."""
    clients: int = 50
    requests: int = 40
    """Requests per client and endpoint."""
    workers: int = 2
    threads: int = 8
    """gunicorn gthread: processes x threads serve the clients."""
    passes: int = 4
    """Each endpoint's requests come in this many bursts, the endpoints taking turns."""
    seed: int = 1


QUICK = BenchConfig(entrants=32, rounds=3, clients=50, requests=4, passes=2)


# ---- the tournament -------------------------------------------------------------
def setup_tournament(*, entrants: int, table_size: int, rounds: int, seed: int) -> dict:
    """A running Swiss with recorded results; returns its id and what to delete afterwards."""
    from games import services as game_services
    from tournaments import services
    from tournaments.models import Round

    nonce = secrets.token_hex(4)
    prefix = f"sbench-{nonce}-"
    players = [
        game_services.create_engine_bot(name=f"{prefix}{i}", bot_name="random")
        for i in range(entrants)
    ]
    t = services.create_tournament(
        name=f"standings benchmark {nonce}", game="silkroad", format="swiss",
        config={"table_size": table_size, "rounds": rounds}, over_the_board=True,
        auto_advance=False, rated=False, seed=seed,
    )  # fmt: skip
    for p in players:
        services.add_entry(tournament=t, player=p)
    services.start_tournament(tournament=t)
    rng = random.Random(seed)
    for number in range(1, rounds + 1):
        rnd = Round.objects.get(tournament=t, number=number)
        services.start_round(round_=rnd)
        tables = list(rnd.tables.prefetch_related("seats"))
        last = number == rounds
        for table in tables[: len(tables) // 2] if last else tables:
            n = len(table.seats.all())
            ranks = rng.sample(range(1, n + 1), n)
            # Results recorded directly, as over-the-board tables: no matches are played.
            services.record_result(table=table, ranks=ranks, scores=[n - r for r in ranks])
        if not last:
            services.pair_next_round(tournament=t)
    return {"tournament": t.pk, "player_prefix": prefix}


def delete_tournament(setup: dict) -> None:
    from games.models import Player
    from tournaments.models import Tournament

    Tournament.objects.filter(pk=setup["tournament"]).delete()
    Player.objects.filter(name__startswith=setup["player_prefix"]).delete()


# ---- the server ------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def gunicorn_server(*, workers: int, threads: int, settings_module: str, timeout: float = 60):
    """gunicorn on the database and cache this process uses; yields the port."""
    from django.conf import settings

    from config.worker_process import process_group, project_env

    port = _free_port()
    # DEBUG off as in production: no query log, no debug pages
    env = project_env(settings_module, DEBUG="0", LOG_LEVEL="WARNING")
    args = [sys.executable, "-m", "gunicorn", "config.wsgi:application",
            "--bind", f"127.0.0.1:{port}", "--worker-class", "gthread",
            "--workers", str(workers), "--threads", str(threads),
            "--backlog", "2048", "--log-level", "warning"]  # fmt: skip
    log_path = Path(settings.VAR_DIR) / f"bench-gunicorn-{os.getpid()}.log"
    with process_group(args, env, log_path) as proc:
        _wait_until_serving(proc, port, timeout, log_path)
        yield port


def _wait_until_serving(proc: subprocess.Popen, port: int, timeout: float, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {proc.returncode}; see {log}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/health/")
            conn.getresponse().read()
            conn.close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"gunicorn did not answer within {timeout} s; see {log}")


# ---- the clients -----------------------------------------------------------------
def measure(
    port: int, path: str, *, clients: int, requests: int, headers: dict | None = None
) -> dict:
    """`clients` threads, each on one keep-alive connection, send `requests` GETs at once."""
    latencies, statuses, wall = _measure(port, path, clients, requests, headers)
    return summarise(latencies, statuses, wall)


def _measure(
    port: int, path: str, clients: int, requests: int, headers: dict | None
) -> tuple[list[float], Counter, float]:
    latencies: list[float] = []
    statuses: Counter = Counter()
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine, codes = [], Counter()
        start.wait()
        for _ in range(requests):
            t0 = time.perf_counter()
            try:
                conn.request("GET", path, headers=headers or {})
                response = conn.getresponse()
                response.read()
            except (OSError, http.client.HTTPException):
                conn.close()  # the server dropped the connection: count it, open another
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                codes["error"] += 1
                continue
            mine.append(time.perf_counter() - t0)
            codes[response.status] += 1
        conn.close()
        with lock:
            latencies.extend(mine)
            statuses.update(codes)

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    for th in threads:
        th.start()
    start.wait()
    t0 = time.perf_counter()
    for th in threads:
        th.join()
    return latencies, statuses, time.perf_counter() - t0


def measure_interleaved(
    port: int, endpoints: dict[str, tuple[str, dict]], *, clients: int, requests: int, passes: int
) -> dict[str, dict]:
    """Each endpoint's requests split over `passes` bursts, the endpoints taking turns, so
    that a busy spell on the (shared) machine hits all of them alike, not one phase."""
    collected = {name: ([], Counter(), 0.0) for name in endpoints}
    per_pass = [requests // passes + (i < requests % passes) for i in range(passes)]
    for n in per_pass:
        if n == 0:
            continue
        for name, (path, headers) in endpoints.items():
            latencies, statuses, wall = _measure(port, path, clients, n, headers)
            all_latencies, all_statuses, all_wall = collected[name]
            all_latencies.extend(latencies)
            all_statuses.update(statuses)
            collected[name] = (all_latencies, all_statuses, all_wall + wall)
    return {name: summarise(*collected[name]) for name in endpoints}


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(1, math.ceil(len(ordered) * q / 100)) - 1]


def summarise(latencies: list[float], statuses: Counter, wall: float) -> dict:
    ms = [v * 1000 for v in latencies]
    return {
        "requests": sum(statuses.values()),
        "statuses": {str(k): v for k, v in sorted(statuses.items(), key=str)},
        "p50_ms": percentile(ms, 50) if ms else None,
        "p95_ms": percentile(ms, 95) if ms else None,
        "max_ms": max(ms) if ms else None,
        "mean_ms": statistics.fmean(ms) if ms else None,
        "requests_per_s": len(ms) / wall if wall > 0 else None,
    }


def _etag_of(port: int, path: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path, headers={"HX-Request": "true"})
    response = conn.getresponse()
    response.read()
    conn.close()
    etag = response.getheader("ETag")
    if response.status != 200 or not etag:
        raise RuntimeError(f"{path} answered {response.status} without an ETag")
    return etag


def run(config: BenchConfig, *, settings_module: str | None = None) -> dict:
    """Set up, serve, measure, clean up. Needs Django set up on a migrated database whose
    writes the server process can see (committed, not inside a test transaction)."""
    from django.urls import reverse

    settings_module = settings_module or os.environ["DJANGO_SETTINGS_MODULE"]
    setup = setup_tournament(entrants=config.entrants, table_size=config.table_size,
                             rounds=config.rounds, seed=config.seed)  # fmt: skip
    try:
        live = reverse("tournament-live", args=[setup["tournament"]])
        health = reverse("health")
        hx = {"HX-Request": "true", "HX-Current-URL": "/", "Accept": "text/html"}
        with gunicorn_server(workers=config.workers, threads=config.threads,
                             settings_module=settings_module) as port:  # fmt: skip
            # The first GET renders (a cache miss, as after every change); the rest share it.
            t0 = time.perf_counter()
            etag = _etag_of(port, live)
            first_ms = (time.perf_counter() - t0) * 1000
            # Warm-up: every worker thread loads its templates, connections and caches.
            warm = {"clients": config.clients, "requests": 2}
            measure(port, health, **warm)
            measure(port, live, headers=hx, **warm)
            phases = measure_interleaved(
                port,
                {
                    "health": (health, {}),
                    "standings": (live, hx),
                    "standings_304": (live, {**hx, "If-None-Match": etag}),
                },
                clients=config.clients, requests=config.requests, passes=config.passes,
            )  # fmt: skip
    finally:
        delete_tournament(setup)
    base = phases["health"]["p95_ms"]
    ratios = {
        name: (phases[name]["p95_ms"] / base if base and phases[name]["p95_ms"] else None)
        for name in ("standings", "standings_304")
    }  # fmt: skip
    return {"config": asdict(config), "phases": phases, "p95_ratio_to_health": ratios,
            "first_render_ms": first_ms}  # fmt: skip


def backend_label() -> str:
    from django.conf import settings

    db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    cache = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    return f"{db}, cache {cache}"


def format_report(result: dict, backend: str) -> str:
    c = result["config"]
    lines = [
        f"standings fragment vs /health/ on {backend}: {c['entrants']} entrants, "
        f"{c['table_size']}-seat Swiss, {c['rounds']} rounds; gunicorn {c['workers']}x{c['threads']} "
        f"threads; {c['clients']} clients x {c['requests']} requests each",
        f"{'endpoint':<22} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'req/s':>7} "
        f"{'p95 / health':>12}  statuses",
    ]
    labels = {
        "health": "/health/",
        "standings": "fragment (full GET)",
        "standings_304": "fragment (If-None-Match)",
    }
    for name, label in labels.items():
        p = result["phases"][name]
        ratio = result["p95_ratio_to_health"].get(name)
        lines.append(
            f"{label:<22} {p['p50_ms'] or 0:>8.1f} {p['p95_ms'] or 0:>8.1f} {p['max_ms'] or 0:>8.1f} "
            f"{p['requests_per_s'] or 0:>7.0f} {f'{ratio:.2f}' if ratio else '-':>12}  {p['statuses']}"
        )
    lines.append(
        f"first GET of the fragment (renders; no load): {result['first_render_ms']:.0f} ms"
    )
    lines.append("target: p95 ratio about 3 or less")
    return "\n".join(lines)


def parse_config(argv: list[str] | None) -> BenchConfig:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.standings_latency", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--quick", action="store_true", help="32 entrants, 4 requests a client")
    names = ("entrants", "table_size", "rounds", "clients", "requests", "workers", "threads",
             "passes")  # fmt: skip
    return config_from_argv(parser, argv, default=BenchConfig(), quick=QUICK, int_options=names)


def main(argv: list[str] | None = None) -> dict:
    config = parse_config(argv)
    setup_django()
    from django.conf import settings

    result = run(config)
    backend = backend_label()
    result["backend"] = backend
    print(format_report(result, backend))
    write_json(Path(settings.VAR_DIR) / "bench" / "standings_latency.json", result)
    return result


if __name__ == "__main__":
    main()
