"""The runner's writes of action rows and seats, without the ORM's per-row cost.

A bot match applies hundreds of decisions in a batch; building a model
instance and compiling an INSERT per row cost ~150 µs a decision, several
times the engine's own work. Here rows go out as PostgreSQL COPY or one
executemany (SQLite and others), through `insert_rows`, which the
rating recompute uses too. Callers hold the match lock in a transaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from django.db import connection

from games.models import MatchAction, Seat

if TYPE_CHECKING:
    from games.services.runner import Decision

_ACTION_COLUMNS = ("match_id", "ply", "seat", "action", "label", "source", "time_used_ms",
                   "created_at")  # fmt: skip
_SEAT_COLUMNS = ("clock_ms", "forfeited", "timeouts", "score", "rank")


def _dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def db_datetime(value):
    """A datetime as `insert_rows` must be given it on this back-end (COPY takes it as is)."""
    if connection.vendor == "postgresql":
        return value
    return connection.ops.adapt_datetimefield_value(value)  # as the ORM would store it


def insert_rows(table: str, columns: Sequence[str], rows: Iterable[Sequence]) -> None:
    """Insert plain rows: COPY on PostgreSQL, one executemany elsewhere.

    Datetimes must come through `db_datetime`; no model instances, no signals.
    """
    quoted = ", ".join(connection.ops.quote_name(c) for c in columns)
    name = connection.ops.quote_name(table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {name} ({quoted}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        marks = ", ".join(["%s"] * len(columns))
        cursor.executemany(f"INSERT INTO {name} ({quoted}) VALUES ({marks})", list(rows))


def append_actions(match_id: int, decisions: Sequence[Decision]) -> None:
    rows = [
        (match_id, d.ply, d.seat, _dumps(d.action), d.label, str(d.source), d.time_used_ms,
         db_datetime(d.created_at))
        for d in decisions
    ]  # fmt: skip
    insert_rows(MatchAction._meta.db_table, _ACTION_COLUMNS, rows)


def update_seats(seats: Sequence[Seat]) -> None:
    table = connection.ops.quote_name(Seat._meta.db_table)
    assignments = ", ".join(f"{connection.ops.quote_name(c)} = %s" for c in _SEAT_COLUMNS)
    rows = [(s.clock_ms, s.forfeited, s.timeouts, s.score, s.rank, s.pk) for s in seats]
    with connection.cursor() as cursor:
        cursor.executemany(f"UPDATE {table} SET {assignments} WHERE id = %s", rows)
