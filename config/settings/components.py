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


# PostgreSQL fails fast when it is down (issue #31): a connection attempt gives up after
# CONNECT_TIMEOUT_S, and a statement after DATABASE_STATEMENT_TIMEOUT_S (the ratings
# recompute raises its own, core/db.py).
CONNECT_TIMEOUT_S = 2
DEFAULT_STATEMENT_TIMEOUT_S = 10.0


def database_config(
    url: str | None,
    var_dir: Path,
    pool: dict | None = None,
    statement_timeout_s: float = DEFAULT_STATEMENT_TIMEOUT_S,
) -> dict:
    """DATABASES['default'] from DATABASE_URL; SQLite under var/ when unset.

    On PostgreSQL each process keeps a bounded pool of connections (`pool`: psycopg_pool
    options, see `pool_options`), shared by its threads: runserver's thread per request
    and gunicorn's threads borrow one per request and give it back, so connections
    never grow with the number of clients. `pool={}` (DB_POOL_MAX_SIZE=0) turns it off:
    then one connection per thread, kept for 60 s, as Django does by default.
    Connecting waits at most CONNECT_TIMEOUT_S and a statement runs at most
    `statement_timeout_s` (0: no limit); broken connections are discarded before use
    (CONN_HEALTH_CHECKS, the pool's check)."""
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
        return config
    options = config.setdefault("OPTIONS", {})
    options.setdefault("connect_timeout", CONNECT_TIMEOUT_S)
    if statement_timeout_s > 0:  # milliseconds, set by the server at connection start
        options.setdefault("options", f"-c statement_timeout={round(statement_timeout_s * 1000)}")
    if pool is None or pool:
        # The pool keeps the connections; Django must hand each back after a request.
        config["CONN_MAX_AGE"] = 0
        config.setdefault("CONN_HEALTH_CHECKS", True)
        config.setdefault("OPTIONS", {})["pool"] = dict(pool or pool_options({}))
    else:
        config.setdefault("CONN_MAX_AGE", 60)
        config.setdefault("CONN_HEALTH_CHECKS", True)
    return config


def pool_options(environ) -> dict:
    """psycopg_pool options from DB_POOL_MIN_SIZE / DB_POOL_MAX_SIZE / DB_POOL_TIMEOUT;
    {} when DB_POOL_MAX_SIZE is 0 (no pool)."""
    max_size = int(environ.get("DB_POOL_MAX_SIZE", 10))
    if max_size <= 0:
        return {}
    min_size = min(int(environ.get("DB_POOL_MIN_SIZE", 1)), max_size)
    # A request waits this long for a free connection before failing (503, core/unavailable.py):
    # short, so that a database outage is answered within seconds, not after 30.
    timeout = float(environ.get("DB_POOL_TIMEOUT", 2))
    return {"min_size": min_size, "max_size": max_size, "timeout": timeout,
            "reconnect_timeout": POOL_RECONNECT_TIMEOUT_S}  # fmt: skip


# The pool retries a failed connection with back-off (1 s, 2 s, 4 s ...) for this long
# and then gives up until a request asks again: by default (5 min) the attempts grew so far
# apart that the site stayed down for up to 48 s after the database was back.
POOL_RECONNECT_TIMEOUT_S = 3.0


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


EMAIL_FILE_BACKEND = "mail.backends.EmlFileBackend"
SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"


def email_config(url: str | None, var_dir: Path) -> dict:
    """EMAIL_* settings from EMAIL_URL (django-environ's parser, with its gaps filled):

    - `smtp://user:pass@host:587?tls=True` or `smtp+tls://…`: STARTTLS;
    - `smtps://…` or `smtp+ssl://…`: TLS from the first byte (port 465);
    - `smtp://host:25`: plain (a relay on the same machine or network);
    - `consolemail://`: printed to the console;
    - `filemail:///path`: one .eml file a mail in /path; unset: in var/mail/.
    User and password may be percent-encoded."""
    if not url:
        url = f"filemail://{var_dir / 'mail'}"
    scheme = urlparse(url).scheme
    parsed = environ.Env.email_url_config(url)
    options = {str(k).lower(): str(v).lower() for k, v in parsed.pop("OPTIONS", {}).items()}
    config = {
        "EMAIL_BACKEND": parsed["EMAIL_BACKEND"],
        "EMAIL_HOST": parsed.get("EMAIL_HOST") or "localhost",
        "EMAIL_PORT": parsed.get("EMAIL_PORT") or 25,
        "EMAIL_HOST_USER": parsed.get("EMAIL_HOST_USER") or "",
        "EMAIL_HOST_PASSWORD": parsed.get("EMAIL_HOST_PASSWORD") or "",
        "EMAIL_USE_TLS": False,
        "EMAIL_USE_SSL": False,
    }
    if scheme in ("smtps", "smtp+ssl") or options.get("ssl") in ("true", "1", "yes"):
        config["EMAIL_USE_SSL"] = True
    elif scheme == "smtp+tls" or options.get("tls") in ("true", "1", "yes"):
        config["EMAIL_USE_TLS"] = True
    if scheme == "filemail":
        config["EMAIL_BACKEND"] = EMAIL_FILE_BACKEND
        # The parser drops the leading slash of filemail:///abs/path.
        config["EMAIL_FILE_PATH"] = urlparse(url).netloc + urlparse(url).path or str(
            var_dir / "mail"
        )
    return config


def check_production_email(config: dict) -> None:
    """Production sends real mail: an smtp:// or smtps:// EMAIL_URL, nothing else."""
    from django.core.exceptions import ImproperlyConfigured

    if config["EMAIL_BACKEND"] != SMTP_BACKEND:
        raise ImproperlyConfigured(
            "production settings need EMAIL_URL set to an SMTP server, e.g. "
            "smtp://user:password@mail.example.org:587?tls=True or "
            "smtps://user:password@mail.example.org:465 (mails are not sent otherwise)"
        )
