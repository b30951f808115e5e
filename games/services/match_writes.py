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

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import orjson
from django.db import IntegrityError, connection
from psycopg import RawCursor
from psycopg.types.json import Json

from games.models import Match, MatchLog, MatchStatus, Seat
from games.services.prepared import prepare_on

# What play changes of a seat (Runner.apply, _timed_out, _finish), written in this order.
_SEAT_COLUMNS = ("clock_ms", "forfeited", "timeouts", "score", "rank", "timeouts_in_row",
                 "forfeit_reason")  # fmt: skip
_SEAT_CASTS = ("bigint", "boolean", "integer", "double precision", "integer", "integer", "text")


def _seat_values(s: Seat) -> tuple:
    return (s.clock_ms, s.forfeited, s.timeouts, s.score, s.rank, s.timeouts_in_row,
            s.forfeit_reason)  # fmt: skip


def _json_bytes(value) -> bytes:
    # orjson: a bot match's log is a few hundred entries, and encoding it with the
    # standard json module cost as much as a tenth of the engine's time for the game.
    # Keys other than strings only where a value has them: allowing them everywhere
    # made a log take twice as long.
    try:
        return orjson.dumps(value)
    except TypeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def _dumps(value) -> str:
    return _json_bytes(value).decode()


def _json_param(value) -> Json:
    """A json parameter for a RawCursor: encoded once, to bytes, and sent as they are
    (as text it was decoded here and encoded again by psycopg)."""
    return Json(value, dumps=_json_bytes)


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


def log_json(entries: Sequence[list]) -> str:
    """Log entries (`Runner.new_actions`) as the JSON text of MatchLog.entries."""
    return _dumps(entries)


def append_actions(match_id: int, first: int, entries: Sequence[list]) -> None:
    """Append the log entries of consecutive plies from `first` to the match's log in one
    statement.

    Raises IntegrityError, writing nothing, unless the log holds exactly the plies
    before the first of them (one action per match and ply, whoever retries)."""
    if not entries:
        return
    count, entries = len(entries), log_json(entries)
    table = connection.ops.quote_name(MatchLog._meta.db_table)
    with connection.cursor() as cursor:
        if first == 0:
            # The primary key refuses a second log of ply 0.
            cursor.execute(f"INSERT INTO {table} (match_id, entries, plies) VALUES (%s, %s, %s)",
                           [match_id, entries, count])  # fmt: skip
            return
        cursor.execute(
            f"UPDATE {table} SET entries = {_appended('entries', 'plies', '%s')}, plies = plies + %s "
            "WHERE match_id = %s AND plies = %s",
            [entries, entries, count, match_id, first],
        )
        if cursor.rowcount != 1:
            raise IntegrityError(
                f"match {match_id}: the log does not end at ply {first}; nothing appended"
            )


def _appended(log: str, plies: str, more: str) -> str:
    """SQL for the JSON array text `log` (of `plies` entries) followed by the entries of
    the array text `more` (which appears twice: give its parameter twice). On PostgreSQL
    a json value, checked as such."""
    t = "::text" if connection.vendor == "postgresql" else ""
    spliced = (f"CASE WHEN {plies} = 0 THEN {more}{t} ELSE substr({log}{t}, 1, "
               f"length({log}{t}) - 1) || ',' || substr({more}{t}, 2) END")  # fmt: skip
    return f"({spliced})::json" if t else spliced


def update_seats(seats: Sequence[Seat]) -> None:
    table = connection.ops.quote_name(Seat._meta.db_table)
    assignments = ", ".join(f"{connection.ops.quote_name(c)} = %s" for c in _SEAT_COLUMNS)
    rows = [(*_seat_values(s), s.pk) for s in seats]
    with connection.cursor() as cursor:
        cursor.executemany(f"UPDATE {table} SET {assignments} WHERE id = %s", rows)


@dataclass(slots=True)
class BatchWrite:
    """One match's part of a bot batch: its row as the runner left it, the ply it was
    loaded at, the log entries to append from `first_ply` and the seats that changed."""

    match: Match
    expected_ply: int
    first_ply: int  # the ply of the first entry
    entries: Sequence[list]  # as Runner.new_actions
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
    prepare_on(connection)
    # Parameters bound by the server: the logs (tens of kilobytes a match) go as they are
    # instead of being escaped into the statement's text, as Django's cursor would; and
    # a RawCursor takes the statement's $n placeholders as they are, without parsing it.
    with RawCursor(connection.connection) as cursor:
        cursor.execute(*_batch_statement(items), prepare=True)
        return _written(_logged_wanted(items), cursor.fetchall())


class PipelinedBatchWrites:
    """PostgreSQL: `write_batches` for groups of matches sent as each group is ready,
    without waiting for the server (psycopg's pipeline mode): the server writes one
    group while the worker plays the next. The results are read when the block ends,
    in `written` (the ids written). Use outside any transaction."""

    def __init__(self) -> None:
        self.written: set[int] = set()
        self._sent: list[tuple[Sequence[BatchWrite], RawCursor]] = []

    def __enter__(self) -> PipelinedBatchWrites:
        prepare_on(connection)
        self._pipeline = connection.connection.pipeline()
        self._pipeline.__enter__()
        return self

    def send(self, items: Sequence[BatchWrite]) -> None:
        """Send the items' statement. The items are not kept: their log entries, once in
        the statement, can be freed while the next matches are played."""
        if items:
            cursor = RawCursor(connection.connection)
            cursor.execute(*_batch_statement(items), prepare=True)
            self._sent.append((_logged_wanted(items), cursor))

    def __exit__(self, *exc) -> None:
        self._pipeline.__exit__(*exc)  # sends what is left and waits for every result
        for logged_wanted, cursor in self._sent:
            try:
                if exc[0] is None:
                    self.written |= _written(logged_wanted, cursor.fetchall())
            finally:
                cursor.close()


def _logged_wanted(items: Sequence[BatchWrite]) -> set[int]:
    """The matches of `items` with log entries to append."""
    return {it.match.pk for it in items if it.entries}


def _written(logged_wanted: set[int], rows) -> set[int]:
    for match_id, logged, _cfg, _seats in rows:
        if match_id in logged_wanted and not logged:  # cannot happen: m's guard read the log
            raise IntegrityError(f"match {match_id}: batch written without its log")
    return {r[0] for r in rows}


# The columns of a match row that bot play changes (Runner.apply, settle, _finish and
# batch_write); a batch writes these and leaves the rest of the row as it is.
PLAY_FIELDS = ("ply", "to_act", "deadline", "turn_started_at", "state", "outcome", "status",
               "finish_reason", "finished_at", "updated_at")  # fmt: skip


@functools.cache
def _play_columns() -> tuple[tuple[str, str, bool], ...]:
    """(attname, SQL cast, is JSON) of each play field, in PLAY_FIELDS order."""
    out = []
    for name in PLAY_FIELDS:
        f = Match._meta.get_field(name)
        out.append((f.attname, f.cast_db_type(connection), f.get_internal_type() == "JSONField"))
    return tuple(out)


@functools.cache
def _batch_sql(matches: int, seats: int) -> str:
    """The statement for `matches` matches and `seats` seat rows, with $n placeholders:
    built once per shape, and sent as it is (a RawCursor does not parse it)."""
    q = connection.ops.quote_name
    play = _play_columns()
    per_match = 5 + len(play)
    n = iter(range(1, 1 + matches * per_match + seats * (2 + len(_SEAT_COLUMNS))))
    # Typed placeholders: VALUES would take a column of NULLs as text.
    # The new entries as text: the server checks the log it stores as json once (the
    # spliced log's cast, or the insert's), not the parameter as well.
    casts = ["bigint", "integer", "integer", "integer", "text"] + [c for _a, c, _j in play]
    rows = ", ".join(
        "(" + ", ".join(f"${next(n)}::{c}" for c in casts) + ")" for _ in range(matches)
    )
    log_table, match_table, seat_table = (
        q(MatchLog._meta.db_table),
        q(Match._meta.db_table),
        q(Seat._meta.db_table),
    )
    fields = [q(Match._meta.get_field(name).column) for name in PLAY_FIELDS]
    sets = ", ".join(f"{c} = v.{c}" for c in fields)
    columns = ", ".join(["id", "expected", "first", "count", "entries", *fields])
    ctes = [
        "cfg AS (SELECT set_config('synchronous_commit', 'off', true))",
        f"v ({columns}) AS (VALUES {rows})",
        # The log guard: no log yet for a batch from ply 0, else a log ending at `first`.
        f"m AS (UPDATE {match_table} AS t SET {sets} FROM v "
        f"WHERE t.id = v.id AND t.ply = v.expected AND t.status = '{MatchStatus.RUNNING}' "
        f"AND (v.entries IS NULL "
        f"OR (v.first = 0 AND NOT EXISTS (SELECT 1 FROM {log_table} g WHERE g.match_id = v.id)) "
        f"OR (v.first > 0 AND EXISTS (SELECT 1 FROM {log_table} g WHERE g.match_id = v.id "
        "AND g.plies = v.first))) RETURNING t.id)",
        f"li AS (INSERT INTO {log_table} (match_id, entries, plies) SELECT v.id, v.entries::json, "
        "v.count FROM v JOIN m ON m.id = v.id WHERE v.first = 0 AND v.entries IS NOT NULL "
        "RETURNING match_id)",
        f"lu AS (UPDATE {log_table} AS g SET entries = {_appended('g.entries', 'g.plies', 'v.entries')}, "
        "plies = g.plies + v.count FROM v JOIN m ON m.id = v.id WHERE g.match_id = v.id "
        "AND v.first > 0 AND v.entries IS NOT NULL RETURNING g.match_id)",
    ]
    if seats:
        seat_casts = ["bigint", "bigint", *_SEAT_CASTS]
        seat_rows = ", ".join(
            "(" + ", ".join(f"${next(n)}::{c}" for c in seat_casts) + ")" for _ in range(seats)
        )
        cols = ", ".join(f"{q(c)} = sv.{c}" for c in _SEAT_COLUMNS)
        ctes.append(
            f"s AS (UPDATE {seat_table} AS t SET {cols} FROM (VALUES {seat_rows}) "
            f"AS sv(id, match_id, {', '.join(_SEAT_COLUMNS)}) "
            "JOIN m ON m.id = sv.match_id WHERE t.id = sv.id RETURNING t.id)"
        )
    else:
        ctes.append("s AS (SELECT 1 WHERE FALSE)")
    return (
        "WITH " + ", ".join(ctes) + " SELECT m.id, m.id IN (SELECT match_id FROM li UNION ALL "
        "SELECT match_id FROM lu), (SELECT count(*) FROM cfg), (SELECT count(*) FROM s) FROM m"
    )


def _batch_statement(items: Sequence[BatchWrite]) -> tuple[str, list]:
    play = _play_columns()
    params: list = []
    for it in items:
        m = it.match
        entries = log_json(it.entries) if it.entries else None
        params += [m.pk, it.expected_ply, it.first_ply, len(it.entries), entries]
        for attname, _cast, is_json in play:
            value = getattr(m, attname)
            params.append(_json_param(value) if is_json and value is not None else value)
    seats = 0
    for it in items:
        for s in it.seats:
            params += [s.pk, it.match.pk, *_seat_values(s)]
            seats += 1
    return _batch_sql(len(items), seats), params
