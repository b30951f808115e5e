"""The test suite: same back-ends as configured by the environment, fast hashing."""

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


def _redis_db(url: str, offset: int) -> str:
    """`url` with its database number moved up by `offset` (redis://h:p/1 -> /1+offset)."""
    parts = urlsplit(url)
    db = int(parts.path.strip("/") or 0) + offset
    return urlunsplit(parts._replace(path=f"/{db}"))


def _isolate_xdist_worker(environ) -> None:
    """Under pytest-xdist (workers gw0, gw1, ...) each worker gets its own var/ folder
    (SQLite files, file cache, filesystem broker) and Redis database: another worker's
    cache.clear() (a Redis FLUSHDB) or throttle counts never reach its tests. Written to
    the environment so the processes its tests start inherit them; done once per worker
    (those processes import these settings too, with the marker set)."""
    worker = environ.get("PYTEST_XDIST_WORKER")
    if not worker or environ.get("TEST_ISOLATED_WORKER") == worker:
        return
    var_dir = Path(environ.get("VAR_DIR") or Path(__file__).resolve().parents[2] / "var")
    environ["VAR_DIR"] = str(var_dir / worker)
    if environ.get("REDIS_URL"):
        environ["REDIS_URL"] = _redis_db(environ["REDIS_URL"], int(worker.removeprefix("gw")))
    environ["TEST_ISOLATED_WORKER"] = worker


_isolate_xdist_worker(os.environ)

from config.settings.base import *  # noqa: E402, F403

# pytest-xdist workers share the broker: each uses its own queue, and the Celery
# workers its tests start inherit the variable, so nobody takes another's tasks.
CELERY_TASK_DEFAULT_QUEUE = f"celery-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
BOT_HEAVY_QUEUE = f"bots-heavy-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# A file, not memory, for SQLite test databases: worker processes started by
# the integration tests must open the same database.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}  # noqa: F405

# The site's default zone, whatever the shell exports: tests read pages in it (a test of
# the TIME_ZONE variable itself imports the settings in a subprocess).
TIME_ZONE = CELERY_TIMEZONE = "Europe/Prague"

# The production web server the push tests start (tests/live_server.py) serves static/
# itself, without collectstatic, as runserver and the test server do.
WHITENOISE_USE_FINDERS = True
