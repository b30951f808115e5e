"""PostgreSQL statements of the bot runner's hot path: prepared once per connection,
planned once, and sent several at a time.

Django binds its parameters on the client, so the server parses and plans every
query it sends: for the bot runner's few statements a round, that took longer than
executing them. These statements are written with $n placeholders, sent through a
RawCursor (psycopg takes the text as it is) and prepared on the server.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import orjson
from psycopg import RawCursor
from psycopg.types.json import JsonbBinaryLoader

# psycopg prepares a statement after this many executions unless told to at once: never.
PREPARE_ONLY_WHEN_ASKED = 2**31 - 1


def prepare_on(conn) -> None:
    """Let this connection keep the hot path's statements prepared, with one generic plan.

    Parsing and planning a batch write took the server longer than executing it
    (~0.7 + ~0.8 ms for four matches, planning including the check of every parameter
    as json). Django leaves psycopg's prepared statements off (its own queries are
    bound on the client, and so never prepared): they are turned on here for the
    statements asked for explicitly (`prepare=True`), which are only these, and the
    session plans prepared statements once for any parameters."""
    conn.ensure_connection()
    pg = conn.connection
    if pg.prepare_threshold is None:
        pg.prepare_threshold = PREPARE_ONLY_WHEN_ASKED
        # Binary results (`fetch_together`) only: Django's queries read text, and jsonb
        # as text for its JSONField to decode.
        pg.adapters.register_loader("jsonb", _OrjsonJsonbBinaryLoader)
    if not getattr(pg, "_generic_plans", False):
        # A setting made inside a transaction is undone by its rollback: there it holds
        # for the transaction only, and the session's is made by a later call outside one.
        local = conn.in_atomic_block
        pg.execute("SELECT set_config('plan_cache_mode', 'force_generic_plan', %s)", [local])
        pg._generic_plans = not local


class _OrjsonJsonbBinaryLoader(JsonbBinaryLoader):
    """jsonb in binary results decoded by orjson (psycopg's default is the json module)."""

    def __init__(self, oid, context=None):
        super().__init__(oid, context)
        self.loads = orjson.loads


def fetch_together(conn, statements: Sequence[tuple[str, Sequence]],
                   meanwhile: Callable[[], object] = lambda: None) -> list[list[tuple]]:  # fmt: skip
    """The rows of each (SQL with $n placeholders, parameters), in order: the statements
    sent together in one round trip (psycopg's pipeline mode), each prepared. The rows
    come in binary, decoded by psycopg's C loaders (as text, every timestamp went
    through Django's loader in Python), jsonb decoded. `meanwhile` is called once the
    statements are sent, while the server runs them (another round trip, say)."""
    prepare_on(conn)
    pg = conn.connection
    cursors = [RawCursor(pg) for _ in statements]
    try:
        with pg.pipeline():
            for cursor, (sql, params) in zip(cursors, statements, strict=True):
                cursor.execute(sql, params, prepare=True, binary=True)
            meanwhile()
        return [cursor.fetchall() for cursor in cursors]
    finally:
        for cursor in cursors:
            cursor.close()
