"""Model instances by id from plain queries, for the bot runner's hot path.

On PostgreSQL the ORM spent more CPU building each query and each instance
(converters, the model's init order, a JSON decoder per field) than a random bot
game takes to play. There a query's text is built once per model and shape, the
rows come from psycopg as they are, and the JSON columns are decoded with orjson.
Elsewhere (SQLite) a raw ORM query does the same work.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import orjson
from django.db import DEFAULT_DB_ALIAS, connection
from django.db.models import Model


@functools.cache
def _select(model: type[Model]) -> tuple[str, tuple[int, ...]]:
    q = connection.ops.quote_name
    fields = model._meta.concrete_fields
    columns = ", ".join(q(f.column) for f in fields)
    json_at = tuple(i for i, f in enumerate(fields) if f.get_internal_type() == "JSONField")
    return f"SELECT {columns} FROM {q(model._meta.db_table)}", json_at


def by_ids(model: type[Model], column: str, ids: Sequence, *, status: str | None = None,
           order_by: Sequence[str] = ()) -> list:  # fmt: skip
    """The rows of `model` whose `column` is one of `ids` (and whose `status` is the
    one given), every column loaded, ordered by `order_by` columns."""
    if not ids:
        return []
    q = connection.ops.quote_name
    order = f" ORDER BY {', '.join(q(c) for c in order_by)}" if order_by else ""
    also = f" AND {q('status')} = %s" if status is not None else ""
    extra = [status] if status is not None else []
    if connection.vendor != "postgresql":
        marks = ", ".join(["%s"] * len(ids))
        sql = f"SELECT * FROM {q(model._meta.db_table)} WHERE {q(column)} IN ({marks}){also}{order}"
        return list(model.objects.raw(sql, [*ids, *extra]))
    select, json_at = _select(model)
    connection.ensure_connection()
    with connection.connection.cursor() as cursor:  # one list parameter: one statement text
        cursor.execute(f"{select} WHERE {q(column)} = ANY(%s){also}{order}", [list(ids), *extra])
        rows = cursor.fetchall()
    out = []
    for row in rows:
        if json_at:
            row = list(row)
            for i in json_at:
                if isinstance(row[i], str | bytes):  # Django has psycopg load jsonb as text
                    row[i] = orjson.loads(row[i])
        out.append(model.from_db(DEFAULT_DB_ALIAS, None, row))
    return out
