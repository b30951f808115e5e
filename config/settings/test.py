"""The test suite: same back-ends as configured by the environment, fast hashing."""

from config.settings.base import *  # noqa: F403

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# A file, not memory, for SQLite test databases: worker processes started by
# the integration tests must open the same database.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}  # noqa: F405
