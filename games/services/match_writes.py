"""The runner's writes of the action log and seats, without the ORM's per-row cost.

A bot match applies hundreds of decisions in a batch. They go to the match's
compact log (MatchLog: one row, a JSON array with an entry per ply) in one
statement per batch, guarded by the log's length so that a ply is logged once
only: a second copy of a batch (a retried worker, a duplicate task) fails with
IntegrityError and its transaction writes nothing. `insert_rows` (COPY on
PostgreSQL, one executemany elsewhere) serves the rating recompute's many rows.
Callers hold the match lock, or check the match's ply, in a transaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from django.db import IntegrityError, connection

from games.models import MatchLog, Seat

if TYPE_CHECKING:
    from games.services.runner import Decision

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


def log_entry(d: Decision) -> list:
    """A decision as stored in MatchLog.entries (its ply is its place in the list)."""
    return [d.seat, d.action, d.label, str(d.source), d.time_used_ms,
            int(d.created_at.timestamp() * 1000)]  # fmt: skip


def append_actions(match_id: int, decisions: Sequence[Decision]) -> None:
    """Append consecutive decisions to the match's log in one statement.

    Raises IntegrityError, writing nothing, unless the log holds exactly the plies
    before the first of them (one action per match and ply, whoever retries)."""
    if not decisions:
        return
    first = decisions[0].ply
    if any(d.ply != first + i for i, d in enumerate(decisions)):
        raise ValueError("decisions to log must be consecutive plies")
    entries = _dumps([log_entry(d) for d in decisions])
    table = connection.ops.quote_name(MatchLog._meta.db_table)
    with connection.cursor() as cursor:
        if first == 0:
            # The primary key refuses a second log of ply 0.
            cursor.execute(f"INSERT INTO {table} (match_id, entries) VALUES (%s, %s)",
                           [match_id, entries])  # fmt: skip
            return
        if connection.vendor == "postgresql":
            cursor.execute(
                f"UPDATE {table} SET entries = entries || %s::jsonb "
                "WHERE match_id = %s AND jsonb_array_length(entries) = %s",
                [entries, match_id, first],
            )
        else:
            # SQLite has no array concatenation: splice the two JSON texts (both arrays).
            cursor.execute(
                f"UPDATE {table} SET entries = CASE json_array_length(entries) WHEN 0 THEN %s "
                "ELSE substr(entries, 1, length(entries) - 1) || ',' || substr(%s, 2) END "
                "WHERE match_id = %s AND json_array_length(entries) = %s",
                [entries, entries, match_id, first],
            )
        if cursor.rowcount != 1:
            raise IntegrityError(
                f"match {match_id}: the log does not end at ply {first}; nothing appended"
            )


def update_seats(seats: Sequence[Seat]) -> None:
    table = connection.ops.quote_name(Seat._meta.db_table)
    assignments = ", ".join(f"{connection.ops.quote_name(c)} = %s" for c in _SEAT_COLUMNS)
    rows = [(s.clock_ms, s.forfeited, s.timeouts, s.score, s.rank, s.pk) for s in seats]
    with connection.cursor() as cursor:
        cursor.executemany(f"UPDATE {table} SET {assignments} WHERE id = %s", rows)
