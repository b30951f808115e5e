"""The runner's writes of action rows and seats, without the ORM's per-row cost.

A bot match applies hundreds of decisions in a batch; building a model
instance and compiling an INSERT per row cost ~150 µs a decision, several
times the engine's own work. Here rows go out as PostgreSQL COPY or one
executemany (SQLite and others). Callers hold the match lock in a transaction.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
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


def append_actions(match_id: int, decisions: Sequence[Decision]) -> None:
    table = connection.ops.quote_name(MatchAction._meta.db_table)
    columns = ", ".join(_ACTION_COLUMNS)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for d in decisions:
                    copy.write_row((match_id, d.ply, d.seat, _dumps(d.action), d.label,
                                    str(d.source), d.time_used_ms, d.created_at))  # fmt: skip
            return
        adapt = connection.ops.adapt_datetimefield_value  # as the ORM would store it
        rows = [
            (match_id, d.ply, d.seat, _dumps(d.action), d.label, str(d.source), d.time_used_ms,
             adapt(d.created_at))
            for d in decisions
        ]  # fmt: skip
        marks = ", ".join(["%s"] * len(_ACTION_COLUMNS))
        cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)


def update_seats(seats: Sequence[Seat]) -> None:
    table = connection.ops.quote_name(Seat._meta.db_table)
    assignments = ", ".join(f"{connection.ops.quote_name(c)} = %s" for c in _SEAT_COLUMNS)
    rows = [(s.clock_ms, s.forfeited, s.timeouts, s.score, s.rank, s.pk) for s in seats]
    with connection.cursor() as cursor:
        cursor.executemany(f"UPDATE {table} SET {assignments} WHERE id = %s", rows)
