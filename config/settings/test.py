"""The test suite: same back-ends as configured by the environment, fast hashing."""

import os

from config.settings.base import *  # noqa: F403

# pytest-xdist workers share the broker: each uses its own queue, and the Celery
# workers its tests start inherit the variable, so nobody takes another's tasks.
CELERY_TASK_DEFAULT_QUEUE = f"celery-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# A file, not memory, for SQLite test databases: worker processes started by
# the integration tests must open the same database.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}  # noqa: F405

# The site's default zone, whatever the shell exports: tests read pages in it (a test of
# the TIME_ZONE variable itself imports the settings in a subprocess).
TIME_ZONE = CELERY_TIMEZONE = "Europe/Prague"
