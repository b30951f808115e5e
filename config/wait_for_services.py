"""Wait until PostgreSQL and Redis accept TCP connections (the entrypoint's first step).

Hosts and ports come from POSTGRES_HOST/POSTGRES_PORT and REDIS_HOST/REDIS_PORT when
set, else from DATABASE_URL and REDIS_URL; a service neither names (SQLite, no Redis)
is not waited for. Works in the image and natively, with nothing but Python.

    python -m config.wait_for_services [--timeout 60]
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import time
from urllib.parse import urlparse


def targets(environ) -> list[tuple[str, str, int]]:
    found = []
    db = urlparse(environ.get("DATABASE_URL", ""))
    if environ.get("POSTGRES_HOST") or db.scheme.startswith(("postgres", "pgsql")):
        host = environ.get("POSTGRES_HOST") or db.hostname or "localhost"
        port = int(environ.get("POSTGRES_PORT") or db.port or 5432)
        found.append(("PostgreSQL", host, port))
    redis = urlparse(environ.get("REDIS_URL", ""))
    if environ.get("REDIS_HOST") or redis.scheme.startswith("redis"):
        host = environ.get("REDIS_HOST") or redis.hostname or "localhost"
        port = int(environ.get("REDIS_PORT") or redis.port or 6379)
        found.append(("Redis", host, port))
    return found


def wait_for(name: str, host: str, port: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection((host, port), timeout=2):
                return True
        except OSError:
            if time.monotonic() >= deadline:
                print(
                    f"{name} at {host}:{port} did not come up in {timeout:.0f} s", file=sys.stderr
                )
                return False
            print(f"waiting for {name} at {host}:{port}", flush=True)
            time.sleep(1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.wait_for_services")
    parser.add_argument("--timeout", type=float, default=float(os.environ.get("WAIT_TIMEOUT", 60)))
    args = parser.parse_args(argv)
    ok = all(wait_for(name, host, port, args.timeout) for name, host, port in targets(os.environ))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
