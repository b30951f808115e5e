"""Creating and starting many matches at once: a tournament round's tables.

`create_match` + `start_match` per table validate the options and every bot's
parameters again, insert the match and its seats, lock the row back, start the
engine, save the row a second time and queue a task: eleven statements a table,
savepoints included. `create_matches` does the same work for a list of matches: it
validates once per distinct options and bot settings, starts every engine in memory
through the same Runner, then writes all the matches in one INSERT (a COPY on
PostgreSQL), all the seats in one more, and the opening forced decisions (if a game
has any) in one more. The rows it writes are the rows the one-by-one path writes for the same
seeds (tests/games/services/test_match_batches.py compares them).

What happens after the commit (bot turns queued, deadlines enforced, finished
matches announced) is `dispatch.announce`, as for one match: a round's bot turns
leave together, a few matches to a task.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection, transaction
from django.utils import timezone

from games.models import Match, MatchLog, MatchStatus, Seat
from games.services import dispatch, live, match_writes
from games.services.match_checks import MatchChecks, MatchPlan, MatchSpec
from games.services.matches import create_match
from games.services.runner import Runner


def create_matches(specs: Sequence[MatchSpec]) -> list[Match]:
    """The matches `create_match` would make of these specs, in their order, in one
    transaction: every spec is checked before anything is written (the first invalid
    one raises the ValidationError `create_match` raises for it), then the matches that
    start at once are written together and started (their first state computed in
    memory, through the Runner, as `start_match` does). A match that must wait (open
    seats, humans to invite, `start=False`) is made by `create_match` itself.

    The returned matches that started hold what was written (not reloaded)."""
    checks = MatchChecks()
    plans = [checks.plan(spec) for spec in specs]
    with transaction.atomic():
        runners = _start_together([plan for plan in plans if plan.starts_now])
        started = iter(runners)
        out = []
        for plan in plans:
            if plan.starts_now:
                out.append(next(started).match)
            else:
                # The spec as given: an unset seed is drawn by create_match (a server seed).
                out.append(create_match(**plan.spec.as_kwargs()))
        dispatch.announce(runners)  # after the commit: a round's bot turns leave together
        if runners:
            live.match_changed()  # started together: listed once (announce tells the rest)
    return out


def _start_together(plans: Sequence[MatchPlan]) -> list[Runner]:
    """Matches started in memory, then written in a few statements (matches, seats, the
    logs of opening forced decisions)."""
    runners = []
    for plan in plans:
        spec, tc = plan.spec, plan.tc
        now = timezone.now()
        match = Match(
            game=spec.game, variant=spec.variant, options=plan.options, seed=plan.seed,
            timeout_policy=spec.timeout_policy, rated=plan.rated, created_by=spec.created_by,
            status=MatchStatus.RUNNING, started_at=now, turn_started_at=now, **tc,
        )  # fmt: skip
        clock = tc["initial_s"] * 1000 if tc["initial_s"] is not None else None
        seats = [
            Seat(match=match, index=i, player=p, clock_ms=clock) for i, p in enumerate(spec.players)
        ]
        state = plan.engine.new_game(players=len(seats), seed=plan.seed, options=match.options)
        runner = Runner(match=match, seats=seats, engine=plan.engine, state=state)
        runner.settle()  # forced opening decisions, who acts, the deadline (as start_match)
        match.state = plan.engine.to_json(runner.state)
        runners.append(runner)
    if not runners:
        return runners
    _insert_matches([r.match for r in runners])
    Seat.objects.bulk_create([s for r in runners for s in r.seats])  # takes each match's id
    logs = [
        (r.match.pk, match_writes.log_json(r.new_actions), len(r.new_actions))
        for r in runners
        if r.new_actions
    ]
    if logs:
        match_writes.insert_rows(MatchLog._meta.db_table, ("match_id", "entries", "plies"), logs)
    for r in runners:
        r.written()
    return runners


def _insert_matches(matches: list[Match]) -> None:
    """One INSERT of new matches, each given its id. PostgreSQL: their ids taken from the
    sequence in one query, then COPY; the ORM's bulk insert (an UNNEST of an array per
    column) spent twice as long quoting the states into array literals."""
    if connection.vendor != "postgresql":
        Match.objects.bulk_create(matches)
        return
    meta = Match._meta
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [meta.db_table, meta.pk.column, len(matches)],
        )
        ids = [row[0] for row in cursor.fetchall()]
    fields = meta.concrete_fields  # the id first, then as the ORM would write each value
    rows = []
    for match, pk in zip(matches, ids, strict=True):
        match.pk = pk
        rows.append([f.get_db_prep_save(f.pre_save(match, True), connection) for f in fields])
        match._state.adding, match._state.db = False, connection.alias
    match_writes.insert_rows(meta.db_table, [f.column for f in fields], rows)
