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

from games.models import Match, MatchLog, MatchStatus, Seat

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


def write_batch(match: Match, expected_ply: int, decisions: Sequence[Decision],
                seats: Sequence[Seat]) -> bool:  # fmt: skip
    """PostgreSQL: a bot batch in one statement: the match row if it is still running at
    `expected_ply`, the decisions appended to its log if the log ends there, the changed
    seats; nothing at all otherwise (returns False). Acknowledged before the disk flush
    (a batch lost in a crash is played again by the sweep; no durable write can depend on
    it, as any later synchronous commit flushes the log up to itself first)."""
    q = connection.ops.quote_name
    fields = [f for f in Match._meta.concrete_fields if not f.primary_key]
    sets = ", ".join(f"{q(f.column)} = %s" for f in fields)
    params: list = [f.get_db_prep_save(getattr(match, f.attname), connection) for f in fields]
    log_table, match_table = q(MatchLog._meta.db_table), q(Match._meta.db_table)
    first = decisions[0].ply if decisions else expected_ply
    if first == 0:
        log_guard = f"NOT EXISTS (SELECT 1 FROM {log_table} WHERE match_id = %s)"
        log_params = [match.pk]
    else:
        log_guard = (
            f"EXISTS (SELECT 1 FROM {log_table} WHERE match_id = %s "
            "AND jsonb_array_length(entries) = %s)"
        )
        log_params = [match.pk, first]
    if not decisions:
        log_guard, log_params = "TRUE", []
    params += [match.pk, expected_ply, str(MatchStatus.RUNNING), *log_params]
    ctes = [
        "cfg AS (SELECT set_config('synchronous_commit', 'off', true))",
        f"m AS (UPDATE {match_table} SET {sets} WHERE id = %s AND ply = %s AND status = %s "
        f"AND {log_guard} RETURNING id)",
    ]
    if decisions:
        entries = _dumps([log_entry(d) for d in decisions])
        if first == 0:
            ctes.append(f"l AS (INSERT INTO {log_table} (match_id, entries) "
                        "SELECT id, %s::jsonb FROM m RETURNING match_id)")  # fmt: skip
        else:
            ctes.append(f"l AS (UPDATE {log_table} SET entries = entries || %s::jsonb "
                        "WHERE match_id IN (SELECT id FROM m) RETURNING match_id)")  # fmt: skip
        params.append(entries)
    else:
        ctes.append("l AS (SELECT id AS match_id FROM m)")
    if seats:
        # Typed: a column of NULLs in VALUES would otherwise be text.
        row = (
            "(%s::bigint, %s::bigint, %s::boolean, %s::integer, %s::double precision, %s::integer)"
        )
        values = ", ".join([row] * len(seats))
        cols = ", ".join(f"{q(c)} = v.{c}" for c in _SEAT_COLUMNS)
        ctes.append(
            f"s AS (UPDATE {q(Seat._meta.db_table)} AS t SET {cols} FROM (VALUES {values}) "
            f"AS v(id, {', '.join(_SEAT_COLUMNS)}) "
            "WHERE t.id = v.id AND EXISTS (SELECT 1 FROM l) RETURNING t.id)"
        )
        for s in seats:
            params += [s.pk, s.clock_ms, s.forfeited, s.timeouts, s.score, s.rank]
    else:
        ctes.append("s AS (SELECT 1 WHERE FALSE)")
    sql = ("WITH " + ", ".join(ctes) +
           " SELECT (SELECT count(*) FROM m), (SELECT count(*) FROM l), (SELECT count(*) FROM cfg)")  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        moved, logged, _ = cursor.fetchone()
    if moved and not logged:  # cannot happen: the match row's guard checked the log
        raise IntegrityError(f"match {match.pk}: batch written without its log")
    return bool(moved)
