"""Database helpers every app may use."""

from __future__ import annotations

from django.conf import settings
from django.db import connection


def allow_long_statements(seconds: float | None = None) -> None:
    """Inside a transaction: let its statements run up to `seconds` (default
    DATABASE_RECOMPUTE_TIMEOUT_S; 0: no limit) instead of the connection's
    DATABASE_STATEMENT_TIMEOUT_S, until the transaction ends (SET LOCAL). For the
    work that reads a whole history at once (the ratings recompute); a no-op on SQLite,
    which has no statement timeout."""
    if connection.vendor != "postgresql":
        return
    if seconds is None:
        seconds = settings.DATABASE_RECOMPUTE_TIMEOUT_S
    with connection.cursor() as cursor:
        # SET takes no bind parameters; the value is a number we format ourselves.
        cursor.execute(f"SET LOCAL statement_timeout = {max(0, round(seconds * 1000))}")
