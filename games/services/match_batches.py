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
matches announced) is `schedule_after_commit`, the batch counterpart of what
`matches._commit` schedules for one match; bot turns go out through
`dispatch_bot_turns`, the one place to hand a whole round to the bot dispatcher.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.engines.base import Engine, InvalidOptions
from games.engines.registry import UnknownGame, get_engine
from games.models import Match, MatchLog, MatchStatus, Player, PlayerKind, Seat, TimeoutPolicy
from games.models import Variant as VariantModel
from games.services import match_writes
from games.services.matches import (
    _think_limit,
    _time_control_fields,
    create_match,
    humans_to_invite,
    rating_objection,
)
from games.services.runner import Runner
from games.signals import match_finished


@dataclass
class MatchSpec:
    """One match to create: the arguments of `create_match`, with the same meaning."""

    game: str
    players: list[Player | None]
    options: dict | None = None
    variant: VariantModel | None = None
    seed: int | None = None
    time_control: dict | None = None
    timeout_policy: str = TimeoutPolicy.AUTO
    rated: bool = False
    created_by: Any = None
    start: bool = True
    consented: bool = False

    def as_kwargs(self) -> dict:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


@dataclass
class _Plan:
    """A spec once checked: everything needed to write it."""

    spec: MatchSpec
    engine: Engine
    options: dict
    tc: dict
    seed: int
    rated: bool
    starts_now: bool


def _key(value) -> str | None:
    """A cache key for JSON-like data; None (no caching) for anything else."""
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        return None


class _Checks:
    """`create_match`'s validation, in its order and with its messages, remembering the
    costly verdicts (options, a bot's parameters: JSON Schema validations) across specs
    that share them: a round's tables share the options and most bots their settings."""

    def __init__(self) -> None:
        self._options: dict[tuple, dict | str] = {}
        self._bot_params: dict[tuple, str | None] = {}

    def resolved_options(self, engine: Engine, game: str, merged: dict) -> dict:
        key = _key(merged)
        verdict = self._options.get((game, key)) if key is not None else None
        if verdict is None:
            try:
                verdict = engine.validate_options(merged)
            except InvalidOptions as exc:
                verdict = str(exc)
            if key is not None:
                self._options[(game, key)] = verdict
        if isinstance(verdict, str):
            raise ValidationError({"options": verdict})
        # Each match gets its own copy, as the database would give it back.
        return json.loads(json.dumps(verdict))

    def bot_params_error(self, engine: Engine, game: str, p: Player, limit: float) -> str | None:
        key = _key(p.bot_params)
        cache_key = (game, p.bot_name, key, limit)
        if key is not None and cache_key in self._bot_params:
            return self._bot_params[cache_key]
        try:
            engine.check_bot_params(p.bot_name, p.bot_params, max_time_s=limit)
            error = None
        except InvalidOptions as exc:
            error = str(exc)
        if key is not None:
            self._bot_params[cache_key] = error
        return error

    def plan(self, spec: MatchSpec) -> _Plan:
        game, players, variant = spec.game, spec.players, spec.variant
        try:
            engine = get_engine(game)
        except UnknownGame as exc:
            raise ValidationError({"game": str(exc)}) from None
        if variant is not None and variant.game != game:
            raise ValidationError({"variant": gettext("That variant belongs to another game.")})
        try:
            engine.check_players(len(players))
        except InvalidOptions as exc:
            raise ValidationError({"options": str(exc)}) from None
        resolved = self.resolved_options(
            engine, game, {**(variant.options if variant else {}), **(spec.options or {})}
        )
        tc = _time_control_fields(spec.time_control)
        open_indices = [i for i, p in enumerate(players) if p is None]
        if open_indices and spec.created_by is None:
            raise ValidationError({"seats": gettext("Only a player can open a seat to others.")})
        if open_indices and len(open_indices) == len(players):
            raise ValidationError({"seats": gettext("Take a seat yourself or seat a bot.")})
        seated = [p for p in players if p is not None]
        limit = None
        for p in seated:
            if not p.is_active:
                raise ValidationError(
                    {"seats": gettext("%(player)s is not active.") % {"player": p.name}}
                )
            if p.game and p.game != game:
                raise ValidationError(
                    {
                        "seats": gettext("%(player)s plays only %(game)s.")
                        % {"player": p.name, "game": p.game}
                    }
                )
            if p.kind == PlayerKind.ENGINE_BOT and p.bot_name not in engine.bot_names():
                raise ValidationError(
                    {
                        "seats": gettext("%(game)s has no bot %(bot)r.")
                        % {"game": gettext(engine.title), "bot": p.bot_name}
                    }
                )
            if p.kind == PlayerKind.ENGINE_BOT:
                limit = _think_limit(tc) if limit is None else limit
                error = self.bot_params_error(engine, game, p, limit)
                if error is not None:
                    raise ValidationError({"seats": f"{p.name}: {error}"})
        if spec.timeout_policy not in TimeoutPolicy.values:
            raise ValidationError({"timeout_policy": f"Use one of {TimeoutPolicy.values}."})
        seed, rated = spec.seed, spec.rated
        if seed is not None and rated:
            raise ValidationError({"seed": "seed may be chosen only for unrated matches"})
        server_seed = seed is None
        if seed is None:
            seed = secrets.randbits(48)
        invitees = [] if spec.consented else humans_to_invite(seated, spec.created_by)
        if rated:
            objection = rating_objection(
                players=seated, created_by=spec.created_by, invited=invitees,
                consented=spec.consented, server_seed=server_seed,
            )  # fmt: skip
            if objection and not spec.consented:
                raise ValidationError(
                    {
                        "rated": gettext("This match cannot be rated: %(reason)s.")
                        % {"reason": objection}
                    }
                )
            rated = objection is None
        starts_now = spec.start and not invitees and not open_indices
        return _Plan(spec=spec, engine=engine, options=resolved, tc=tc, seed=seed, rated=rated,
                     starts_now=starts_now)  # fmt: skip


def create_matches(specs: Sequence[MatchSpec]) -> list[Match]:
    """The matches `create_match` would make of these specs, in their order, in one
    transaction: every spec is checked before anything is written (the first invalid
    one raises the ValidationError `create_match` raises for it), then the matches that
    start at once are written together and started (their first state computed in
    memory, through the Runner, as `start_match` does). A match that must wait (open
    seats, humans to invite, `start=False`) is made by `create_match` itself.

    The returned matches that started hold what was written (not reloaded)."""
    checks = _Checks()
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
        schedule_after_commit(runners)
    return out


def _start_together(plans: Sequence[_Plan]) -> list[Runner]:
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
        (r.match.pk, json.dumps([match_writes.log_entry(d) for d in r.new_actions],
                                separators=(",", ":")))
        for r in runners
        if r.new_actions
    ]  # fmt: skip
    if logs:
        match_writes.insert_rows(MatchLog._meta.db_table, ("match_id", "entries"), logs)
    for r in runners:
        r.new_actions, r.changed_seats = [], set()
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


def schedule_after_commit(runners: Sequence[Runner]) -> None:
    """After the commit, for every match just written, what `matches._commit` schedules
    for one: the end announced (match_finished), else the bot turn queued (through
    `dispatch_bot_turns`, one call for all), else the deadline enforced."""
    finished, bot_turns, deadlines = [], [], []
    for runner in runners:
        match = runner.match
        if runner.finished:
            finished.append((match.pk, match.rated))
        elif runner.is_bot_turn():
            bot_turns.append((match.pk, match.ply))
        elif match.deadline is not None:
            deadlines.append((match.pk, match.ply, match.deadline))
    if not (finished or bot_turns or deadlines):
        return

    def after_commit() -> None:
        from games import tasks  # tasks import services; imported late to avoid a cycle

        for match_id, rated in finished:
            match_finished.send(sender=Match, match_id=match_id, rated=rated)
        dispatch_bot_turns(bot_turns)
        for match_id, ply, deadline in deadlines:
            tasks.enforce_deadline.apply_async((match_id, ply), eta=deadline)

    transaction.on_commit(after_commit)


def dispatch_bot_turns(turns: Sequence[tuple[int, int]]) -> None:
    """Queue the bot turns of matches just started, given as (match id, ply): today one
    `play_bots` task each, as `matches._commit` queues them; the single place where a
    round's bot turns leave, to be handed to a batched dispatcher as one call."""
    from games import tasks

    for match_id, ply in turns:
        tasks.play_bots.delay(match_id, ply)
