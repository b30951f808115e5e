"""Model instances by id from plain queries, for the bot runner's hot path.

On PostgreSQL the ORM spent more CPU building each query and each instance
(converters, the model's init order, a JSON decoder per field) than a random bot
game takes to play. There the runner's three loads are prepared statements sent
together (`running_tables`), their rows come in binary from psycopg as they are
(JSON decoded with orjson) and become instances through `Model.from_db`.
Elsewhere (SQLite) raw ORM queries do the same work.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from django.db import DEFAULT_DB_ALIAS, connection
from django.db.models import Model
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init

from games.models import Match, Player, Seat
from games.services import prepared


def _select(model: type[Model]) -> str:
    q = connection.ops.quote_name
    columns = ", ".join(q(f.column) for f in model._meta.concrete_fields)
    return f"SELECT {columns} FROM {q(model._meta.db_table)}"


def running_tables(match_ids: Sequence[int], status: str,
                   meanwhile: Callable[[], object] = lambda: None) -> tuple[list, list, list]:  # fmt: skip
    """The matches of `match_ids` in `status`, the seats of `match_ids` (by match and
    index) and the players of those seats. PostgreSQL: three prepared statements in
    one round trip (three round trips and three plannings cost the worker as long as a
    random-bot match), `meanwhile` called while the server reads them (elsewhere:
    before the queries)."""
    if connection.vendor == "postgresql" and match_ids:
        ids = list(match_ids)
        statements = [(sql, [ids]) for sql in _table_statements()]
        rows = prepared.fetch_together(connection, statements, meanwhile)
        matches, seats, players = (
            _instances(m, r) for m, r in zip((Match, Seat, Player), rows, strict=True)
        )
    else:
        meanwhile()
        matches = _raw(Match, "id", match_ids)
        seats = _raw(Seat, "match_id", match_ids, order_by=("match_id", "index"))
        players = _raw(Player, "id", list({s.player_id for s in seats}))
    # The status is checked here on both back-ends (see _table_statements).
    return [m for m in matches if m.status == status], seats, players


@functools.cache
def _table_statements() -> tuple[str, str, str]:
    # Plans that stay right for any parameters (prepared statements get one generic
    # plan): the status is checked here, not by the server, which scanned the status
    # index for every running or finished match; the players come by id from an array
    # of the seats' player ids, where a join walked every seat the bot ever had.
    q = connection.ops.quote_name
    in_ids = "= ANY($1::bigint[])"
    seats = q(Seat._meta.db_table)
    return (
        f"{_select(Match)} WHERE {q('id')} {in_ids}",
        f"{_select(Seat)} WHERE {q('match_id')} {in_ids} ORDER BY {q('match_id')}, {q('index')}",
        f"{_select(Player)} WHERE {q('id')} = ANY(ARRAY(SELECT {q('player_id')} FROM {seats} "
        f"WHERE {q('match_id')} {in_ids}))",
    )


def _raw(model: type[Model], column: str, ids: Sequence, order_by: Sequence[str] = ()) -> list:
    """Elsewhere than PostgreSQL: the rows of `model` whose `column` is one of `ids`,
    ordered by `order_by` columns, as one raw query."""
    if not ids:
        return []
    q = connection.ops.quote_name
    order = f" ORDER BY {', '.join(q(c) for c in order_by)}" if order_by else ""
    marks = ", ".join(["%s"] * len(ids))
    sql = f"SELECT * FROM {q(model._meta.db_table)} WHERE {q(column)} IN ({marks}){order}"
    return list(model.objects.raw(sql, list(ids)))


def _instances(model: type[Model], rows: Sequence[tuple]) -> list:
    """Instances of rows of every concrete column in order (JSON decoded by the loader).

    What `Model.from_db` makes, without running `Model.__init__`: its generic loop
    (a descriptor's checks per foreign key, two signals) took a third of the load.
    As unpickling does, the values go straight into the instance; a model that
    overrides its init or `from_db`, or whose init something listens for, goes
    through `from_db`."""
    if (
        model.__init__ is not Model.__init__
        or model.from_db.__func__ is not Model.from_db.__func__
        or pre_init.has_listeners(model)
        or post_init.has_listeners(model)
    ):
        return [model.from_db(DEFAULT_DB_ALIAS, None, row) for row in rows]
    names = _attnames(model)
    make = object.__new__
    out = []
    for row in rows:
        obj = make(model)
        state = ModelState()
        state.adding, state.db = False, DEFAULT_DB_ALIAS
        values = obj.__dict__
        values["_state"] = state
        values.update(zip(names, row, strict=True))
        out.append(obj)
    return out


@functools.cache
def _attnames(model: type[Model]) -> tuple[str, ...]:
    return tuple(f.attname for f in model._meta.concrete_fields)
