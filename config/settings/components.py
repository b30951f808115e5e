"""Pure functions that turn environment values into settings blocks.

Kept free of Django imports at module level so they can be unit-tested
without configuring Django.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import environ

from config import filesystem_broker  # registers the embedded broker's URL scheme

DEFAULT_SECRET_KEY = "insecure-dev-key-change-me"


def database_config(url: str | None, var_dir: Path) -> dict:
    """DATABASES['default'] from DATABASE_URL; SQLite under var/ when unset."""
    if not url:
        url = f"sqlite:///{var_dir / 'db.sqlite3'}"
    config = environ.Env.db_url_config(url)
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # Web, worker and beat share one file: wait for locks instead of failing,
        # let readers run beside a writer, and take the write lock up front so
        # concurrent transactions serialise instead of deadlocking.
        config["OPTIONS"] = {
            "timeout": 30,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
        }
    else:
        config.setdefault("CONN_MAX_AGE", 60)
        config.setdefault("CONN_HEALTH_CHECKS", True)
    return config


def celery_config(redis_url: str | None, var_dir: Path) -> dict:
    """Broker and result backend: Redis when REDIS_URL is set, else a shared folder.

    The filesystem transport needs no server and works across processes on
    one machine, so `make run` starts a real worker on a fresh machine.
    """
    if redis_url:
        return {
            "broker_url": redis_url,
            "result_backend": redis_url,
            "broker_transport_options": {"visibility_timeout": 3600},
        }
    broker_dir = var_dir / "celery" / "broker"
    processed_dir = var_dir / "celery" / "processed"
    results_dir = var_dir / "celery" / "results"
    control_dir = var_dir / "celery" / "control"
    for d in (broker_dir, processed_dir, results_dir, control_dir):
        d.mkdir(parents=True, exist_ok=True)
    return {
        "broker_url": f"{filesystem_broker.SCHEME}://",
        "result_backend": f"file://{results_dir}",
        "broker_transport_options": {
            "data_folder_in": str(broker_dir),
            "data_folder_out": str(broker_dir),
            "processed_folder": str(processed_dir),
            "control_folder": str(control_dir),
            "store_processed": False,
            # The folder is polled; the default second would delay every task.
            "polling_interval": 0.1,
        },
    }


def cache_config(redis_url: str | None, var_dir: Path) -> dict:
    """A cache every process shares: Redis (a miss, not an error, while Redis is down),
    or files under var/."""
    if redis_url:
        return {"BACKEND": "config.cache.ResilientRedisCache", "LOCATION": redis_url}
    return {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(var_dir / "cache"),
    }


def broker_kind(broker_url: str) -> str:
    return urlparse(broker_url).scheme or "unknown"
