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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import orjson
from django.db import IntegrityError, connection
from psycopg import Cursor as ServerBindingCursor

from games.models import Match, MatchLog, MatchStatus, Seat

if TYPE_CHECKING:
    from games.services.runner import Decision

_SEAT_COLUMNS = ("clock_ms", "forfeited", "timeouts", "score", "rank")


def _dumps(value) -> str:
    # orjson: a bot match's log is a few hundred entries, and encoding it with the
    # standard json module cost as much as a tenth of the engine's time for the game.
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


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
    return [d.seat, d.action, d.label, str(d.source), d.time_used_ms, d.at_ms]


def log_json(decisions: Sequence[Decision]) -> str:
    """Decisions as the JSON text of MatchLog.entries."""
    return _dumps([log_entry(d) for d in decisions])


def append_actions(match_id: int, decisions: Sequence[Decision]) -> None:
    """Append consecutive decisions to the match's log in one statement.

    Raises IntegrityError, writing nothing, unless the log holds exactly the plies
    before the first of them (one action per match and ply, whoever retries)."""
    if not decisions:
        return
    first = decisions[0].ply
    if any(d.ply != first + i for i, d in enumerate(decisions)):
        raise ValueError("decisions to log must be consecutive plies")
    entries = log_json(decisions)
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


@dataclass(slots=True)
class BatchWrite:
    """One match's part of a bot batch: its row as the runner left it, the ply it was
    loaded at, the decisions to append to its log and the seats that changed."""

    match: Match
    expected_ply: int
    decisions: Sequence[Decision]
    seats: Sequence[Seat]


def write_batches(items: Sequence[BatchWrite]) -> set[int]:
    """PostgreSQL: bot batches of several matches in one statement; returns the ids written.

    A match is written (its row, the decisions appended to its log, its changed seats)
    only if it is still running at its `expected_ply` and its log ends there; otherwise
    nothing of it is (another copy of the batch got there first). Acknowledged before
    the disk flush: a batch lost in a crash is played again by the sweep, and no durable
    write can depend on it, as any later synchronous commit flushes the log up to itself."""
    if not items:
        return set()
    connection.ensure_connection()
    # Parameters bound by the server: the logs (tens of kilobytes a match) go as they are
    # instead of being escaped into the statement's text, as Django's cursor would.
    with ServerBindingCursor(connection.connection) as cursor:
        cursor.execute(*_batch_statement(items))
        return _written(items, cursor.fetchall())


class PipelinedBatchWrites:
    """PostgreSQL: `write_batches` for groups of matches sent as each group is ready,
    without waiting for the server (psycopg's pipeline mode): the server writes one
    group while the worker plays the next. The results are read when the block ends,
    in `written` (the ids written). Use outside any transaction."""

    def __init__(self) -> None:
        self.written: set[int] = set()
        self._sent: list[tuple[Sequence[BatchWrite], ServerBindingCursor]] = []

    def __enter__(self) -> PipelinedBatchWrites:
        connection.ensure_connection()
        self._pipeline = connection.connection.pipeline()
        self._pipeline.__enter__()
        return self

    def send(self, items: Sequence[BatchWrite]) -> None:
        if items:
            cursor = ServerBindingCursor(connection.connection)
            cursor.execute(*_batch_statement(items))
            self._sent.append((items, cursor))

    def __exit__(self, *exc) -> None:
        self._pipeline.__exit__(*exc)  # sends what is left and waits for every result
        for items, cursor in self._sent:
            try:
                if exc[0] is None:
                    self.written |= _written(items, cursor.fetchall())
            finally:
                cursor.close()


def _written(items: Sequence[BatchWrite], rows) -> set[int]:
    logged_wanted = {it.match.pk for it in items if it.decisions}
    for match_id, logged, _cfg, _seats in rows:
        if match_id in logged_wanted and not logged:  # cannot happen: m's guard read the log
            raise IntegrityError(f"match {match_id}: batch written without its log")
    return {r[0] for r in rows}


def _batch_statement(items: Sequence[BatchWrite]) -> tuple[str, list]:
    q = connection.ops.quote_name
    fields = [f for f in Match._meta.concrete_fields if not f.primary_key]
    # Typed placeholders: VALUES would take a column of NULLs as text.
    row = (
        "(%s::bigint, %s::integer, %s::integer, %s::jsonb, "
        + ", ".join(f"%s::{f.cast_db_type(connection)}" for f in fields)
        + ")"
    )
    params: list = []
    for it in items:
        m = it.match
        first = it.decisions[0].ply if it.decisions else it.expected_ply
        entries = log_json(it.decisions) if it.decisions else None
        params += [m.pk, it.expected_ply, first, entries]
        params += [f.get_db_prep_save(getattr(m, f.attname), connection) for f in fields]
    log_table, match_table, seat_table = (
        q(MatchLog._meta.db_table),
        q(Match._meta.db_table),
        q(Seat._meta.db_table),
    )
    sets = ", ".join(f"{q(f.column)} = v.{q(f.column)}" for f in fields)
    columns = ", ".join(["id", "expected", "first", "entries"] + [q(f.column) for f in fields])
    ctes = [
        "cfg AS (SELECT set_config('synchronous_commit', 'off', true))",
        f"v ({columns}) AS (VALUES {', '.join([row] * len(items))})",
        # The log guard: no log yet for a batch from ply 0, else a log ending at `first`.
        f"m AS (UPDATE {match_table} AS t SET {sets} FROM v "
        "WHERE t.id = v.id AND t.ply = v.expected AND t.status = %s AND (v.entries IS NULL "
        f"OR (v.first = 0 AND NOT EXISTS (SELECT 1 FROM {log_table} g WHERE g.match_id = v.id)) "
        f"OR (v.first > 0 AND EXISTS (SELECT 1 FROM {log_table} g WHERE g.match_id = v.id "
        "AND jsonb_array_length(g.entries) = v.first))) RETURNING t.id)",
        f"li AS (INSERT INTO {log_table} (match_id, entries) SELECT v.id, v.entries FROM v "
        "JOIN m ON m.id = v.id WHERE v.first = 0 AND v.entries IS NOT NULL RETURNING match_id)",
        f"lu AS (UPDATE {log_table} AS g SET entries = g.entries || v.entries FROM v "
        "JOIN m ON m.id = v.id WHERE g.match_id = v.id AND v.first > 0 "
        "AND v.entries IS NOT NULL RETURNING g.match_id)",
    ]
    params.append(str(MatchStatus.RUNNING))
    seats = [(it.match.pk, s) for it in items for s in it.seats]
    if seats:
        seat_row = ("(%s::bigint, %s::bigint, %s::bigint, %s::boolean, %s::integer, "
                    "%s::double precision, %s::integer)")  # fmt: skip
        cols = ", ".join(f"{q(c)} = sv.{c}" for c in _SEAT_COLUMNS)
        ctes.append(
            f"s AS (UPDATE {seat_table} AS t SET {cols} FROM (VALUES "
            f"{', '.join([seat_row] * len(seats))}) AS sv(id, match_id, {', '.join(_SEAT_COLUMNS)}) "
            "JOIN m ON m.id = sv.match_id WHERE t.id = sv.id RETURNING t.id)"
        )
        for match_id, s in seats:
            params += [s.pk, match_id, s.clock_ms, s.forfeited, s.timeouts, s.score, s.rank]
    else:
        ctes.append("s AS (SELECT 1 WHERE FALSE)")
    sql = (
        "WITH " + ", ".join(ctes) + " SELECT m.id, m.id IN (SELECT match_id FROM li UNION ALL "
        "SELECT match_id FROM lu), (SELECT count(*) FROM cfg), (SELECT count(*) FROM s) FROM m"
    )
    return sql, params
