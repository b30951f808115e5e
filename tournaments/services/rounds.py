"""Rounds: the start of a tournament, pairing the next round (the pure formats decide),
re-pairing one, starting its tables' matches, and advancing when a round is done.

Pairing logic lives in the pure `tournaments.formats` package; this module turns rows
into its types and back, and owns the transactions."""

from __future__ import annotations

import dataclasses
import secrets
from datetime import timedelta
from itertools import combinations

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from games import services as game_services
from games.models import Player
from tournaments import format_rows, formats
from tournaments.models import (
    Bye,
    Entry,
    PairingChangeKind,
    Round,
    RoundStatus,
    Table,
    TableSeat,
    TableStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.services import (
    entrants,
    lifecycle,
    notices,
    overrides,
    results,
    setup,
    versions,
)  # fmt: skip
from tournaments.services.setup import format_error_message


def start_tournament(*, tournament: Tournament) -> Round | None:
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.status != TournamentStatus.REGISTRATION:
            raise ValidationError(
                gettext("The tournament is %(status)s.")
                % {"status": str(t.get_status_display()).lower()},
                code="wrong_status",
            )
        entrants.drop_unchecked(t)
        for e in t.entries.select_related("player"):
            e.rating = format_rows.rating_of(e.player, t.game)
            e.save(update_fields=["rating"])
        try:
            format_rows.format_for(t).validate(format_rows.entrants(t))
        except ValueError as exc:
            raise ValidationError(format_error_message(exc)) from None
        t.status, t.started_at = TournamentStatus.RUNNING, timezone.now()
        t.save(update_fields=["status", "started_at"])
        versions.announce(t.pk)  # the status is in the live version (no results bump)
        rnd = pair_next_round(tournament=t)
        if rnd is not None and t.auto_advance:
            start_round(round_=rnd)
        notices.after_commit(notices.tournament_started, t.pk)
        return rnd


def pair_next_round(*, tournament: Tournament, seed: int | None = None) -> Round | None:
    """Pair the next round (not started yet), or finish the tournament if none is left."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.status != TournamentStatus.RUNNING:
            raise ValidationError(
                gettext("Only a running tournament is paired."), code="tournament_not_running"
            )
        if t.rounds.exclude(status=RoundStatus.FINISHED).exists():
            raise ValidationError(
                gettext("The current round is not finished."), code="round_not_finished"
            )
        number = t.current_round + 1
        go_on = lifecycle.may_pair(t, number)
        if go_on is False:
            raise ValidationError(gettext("The tournament is paused."), code="paused")
        plan = (
            None
            if go_on is None
            else _next_round(
                format_rows.format_for(t),
                format_rows.entrants(t),
                format_rows.played_rounds(t),
                seed=t.seed * 1009 + number if seed is None else seed,
            )
        )
        if plan is None:
            t.status, t.finished_at = TournamentStatus.FINISHED, timezone.now()
            t.save(update_fields=["status", "finished_at"])
            versions.announce(t.pk)
            return None
        # Clamped: rows from before round_days was bounded may hold 10^8 days.
        days = min(t.round_days, setup.MAX_ROUND_DAYS) if t.round_days else None
        deadline = timezone.now() + timedelta(days=days) if days else None
        rnd = Round.objects.create(tournament=t, number=number, label=plan.label or f"Round {number}",
                                   deadline=deadline)  # fmt: skip
        _create_tables(rnd, plan)
        notices.after_commit(notices.round_paired, rnd.pk)
        t.current_round = number
        t.save(update_fields=["current_round"])
        versions.announce(t.pk)  # the current round is in the live version
        return rnd


def _next_round(fmt, entrants_: list, played: list, *, seed: int) -> formats.Round | None:
    """The format's next round; a history it can't follow (rows edited by hand: a seat
    twice, an entry moved to another tournament) is the organiser's ValidationError, in
    his language, not a 500."""
    try:
        return fmt.next_round(entrants_, played, seed=seed)
    except formats.FormatError as exc:
        raise ValidationError(format_error_message(exc)) from None


def _create_tables(rnd: Round, plan: formats.Round) -> None:
    for i, planned in enumerate(plan.tables, start=1):
        table = Table.objects.create(round=rnd, number=i, bracket=planned.bracket)
        TableSeat.objects.bulk_create(
            TableSeat(table=table, index=s, entry_id=entry_id)
            for s, entry_id in enumerate(planned.seats)
        )
    Bye.objects.bulk_create(Bye(round=rnd, entry_id=e) for e in plan.byes)


def repair_round(*, round_: Round, by=None) -> Round:
    """Pair a round again before it starts: a different pairing than the one it has (the
    format's own if the organiser changed it by hand), or a refusal when the format
    allows no other (a round robin's schedule, a bracket, the only pairing without a
    repeat meeting)."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
        _require_paired(rnd)
        t = rnd.tournament
        before = overrides.snapshot(rnd)
        played = [r for r in format_rows.played_rounds(t) if r.number < rnd.number]
        plan = _different_plan(t, format_rows.entrants(t), played, before)
        if plan is None:
            raise ValidationError(
                gettext("The format allows no other pairing of %(round)s.") % {"round": rnd},
                code="no_other_pairing",
            )
        _replace_tables(rnd, plan)
        overrides.log_change(rnd, kind=PairingChangeKind.REPAIR, by=by, before=before,
                             after=overrides.snapshot(rnd))  # fmt: skip
        versions.touch(t.pk)
        return rnd


def _require_paired(rnd: Round) -> None:
    if rnd.status != RoundStatus.PAIRED:
        raise ValidationError(
            gettext("Only a round that has not started can be paired again."),
            code="round_started",
        )


def _replace_tables(rnd: Round, plan: formats.Round) -> None:
    rnd.tables.all().delete()
    rnd.byes.all().delete()
    _create_tables(rnd, plan)


def _shape(tables, byes) -> tuple[frozenset, frozenset]:
    """Who sits with whom, and who has a bye (seat order aside)."""
    return frozenset(frozenset(seats) for seats in tables), frozenset(byes)


def _plan_shape(plan: formats.Round) -> tuple[frozenset, frozenset]:
    return _shape([table.seats for table in plan.tables], plan.byes)


def _pairs(tables) -> set[frozenset[int]]:
    return {frozenset((a, b)) for seats in tables for a, b in combinations(seats, 2)}


def _cost(plan: formats.Round, met: set, forbidden) -> tuple[int, int]:
    """Forbidden pairs, then repeat meetings, at the plan's tables (fewer is better)."""
    pairs = _pairs(table.seats for table in plan.tables)
    return len(pairs & set(forbidden)), len(pairs & met)


# Seeds tried for a different pairing, and Swiss pairs kept apart one at a time.
_SEED_TRIES = 4
_SINGLE_PAIRS = 8


def _different_plan(t: Tournament, entrants_: list, played: list, current: dict):
    """A plan unlike ``current`` that costs no more forbidden pairs or repeat meetings
    than the format's own pairing; None if the format allows none.

    Other seeds first (round robin's tables of 3-5 use one); Swiss ignores the seed, so
    then its current pairs are kept apart (all at once, then one by one) as forbidden
    pairs: its matching avoids them where it can."""
    fmt = format_rows.format_for(t)
    now = _shape(current["tables"], current["byes"])
    own = None
    for _ in range(_SEED_TRIES):
        plan = _next_round(fmt, entrants_, played, seed=secrets.randbits(31))
        if plan is None:
            return None
        if _plan_shape(plan) != now:
            return plan
        own = plan
    if t.format != "swiss":
        return None
    config = fmt.config
    met = _pairs(table.seats for r in played for table in r.tables)
    best = _cost(own, met, config.forbidden)
    current_pairs = sorted(_pairs(current["tables"]), key=sorted)
    tries = [frozenset(current_pairs)] + [frozenset([p]) for p in current_pairs[:_SINGLE_PAIRS]]
    for apart in tries:
        other = formats.FORMATS[t.format](
            dataclasses.replace(config, forbidden=config.forbidden | apart)
        )
        plan = _next_round(other, entrants_, played, seed=0)
        if (
            plan is not None
            and _plan_shape(plan) != now
            and _cost(plan, met, config.forbidden) <= best
        ):
            return plan
    return None


def after_withdrawal(tournament: Tournament, entry_id: int) -> bool:
    """A withdrawal while the current round is paired but not started: the entrant takes
    no part in it (withdrawn after the round before), and a round that seats him is paired
    again without him (unpaired if nobody is left to pair). Called by
    ``entrants.withdraw_entry`` under its tournament lock; True if the round changed."""
    rnd = (
        Round.objects.select_for_update()
        .filter(tournament=tournament, number=tournament.current_round, status=RoundStatus.PAIRED)
        .first()
    )
    if rnd is None:
        return False
    entry = tournament.entries.get(pk=entry_id)
    entry.withdrawn_after = max(rnd.number - 1, entry.joined_round - 1)
    entry.save(update_fields=["withdrawn_after"])
    seated = (
        TableSeat.objects.filter(table__round=rnd, entry_id=entry_id).exists()
        or Bye.objects.filter(round=rnd, entry_id=entry_id).exists()
    )
    if not seated:
        return False
    t = tournament
    before = overrides.snapshot(rnd)
    played = [r for r in format_rows.played_rounds(t) if r.number < rnd.number]
    plan = _next_round(
        format_rows.format_for(t), format_rows.entrants(t), played, seed=t.seed * 1009 + rnd.number
    )
    if plan is None:  # nobody left to play this round: back to "not paired"
        overrides.unpair(round_=rnd)
        return True
    _replace_tables(rnd, plan)
    overrides.log_change(rnd, kind=PairingChangeKind.REPAIR, by=None, before=before,
                         after=overrides.snapshot(rnd))  # fmt: skip
    return True


def seated_in_paired_round(entry: Entry) -> Round | None:
    """The paired, not started round that seats the entry (a withdrawal re-pairs it)."""
    return (
        Round.objects.filter(
            tournament_id=entry.tournament_id,
            status=RoundStatus.PAIRED,
        )
        .filter(Q(tables__seats__entry=entry) | Q(byes__entry=entry))
        .distinct()
        .first()
    )


def start_round(*, round_: Round) -> Round:
    """Start every table: online tables become matches; over-the-board tables await results."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
        if rnd.status != RoundStatus.PAIRED:
            raise ValidationError(gettext("The round has already started."), code="round_started")
        t = rnd.tournament
        rnd.status, rnd.started_at = RoundStatus.RUNNING, timezone.now()
        rnd.save(update_fields=["status", "started_at"])
        tables = list(rnd.tables.all())
        if not t.over_the_board:
            players = _players_by_table(rnd)
            # All the round's matches in a few statements (games.services.match_batches):
            # one by one they cost a dozen round trips a table.
            matches = game_services.create_matches([
                game_services.MatchSpec(
                    game=t.game, players=players.get(table.pk, []),
                    options=t.options, variant=t.variant, time_control=t.time_control(),
                    timeout_policy=t.timeout_policy, rated=t.rated, created_by=t.organiser,
                    consented=True,  # they entered
                )
                for table in tables
            ])  # fmt: skip
            for table, match in zip(tables, matches, strict=True):
                table.match = match
        _set_playing(tables)
        versions.touch(t.pk)
        if not tables:  # only byes: nothing to wait for
            results._finish_round_if_done(rnd)
        return rnd


def _players_by_table(rnd: Round) -> dict[int, list[Player]]:
    """Each table's players in seat order: one query (a prefetch of seats, entries and
    players took three and twice the time for a 250-table round)."""
    seats = TableSeat.objects.filter(table__round=rnd).select_related("entry__player")
    players: dict[int, list[Player]] = {}
    for seat in seats.order_by("table_id", "index"):
        players.setdefault(seat.table_id, []).append(seat.entry.player)
    return players


def _set_playing(tables: list[Table]) -> None:
    """Every table of the round playing, with its match if any: one executemany (a
    pipeline on PostgreSQL), 6x faster than bulk_update's CASE per table."""
    for table in tables:
        table.status = TableStatus.PLAYING
    q = connection.ops.quote_name
    sql = (f"UPDATE {q(Table._meta.db_table)} SET {q('status')} = %s, {q('match_id')} = %s "
           f"WHERE {q('id')} = %s")  # fmt: skip
    with connection.cursor() as cursor:
        cursor.executemany(sql, [(table.status, table.match_id, table.pk) for table in tables])


def advance_tournament(*, tournament_id: int) -> Round | None:
    """Pair and start the next round if the current one is done (idempotent)."""
    t = Tournament.objects.get(pk=tournament_id)
    if (
        t.status != TournamentStatus.RUNNING
        or t.paused
        or t.rounds.exclude(status=RoundStatus.FINISHED).exists()
    ):
        return None
    try:
        rnd = pair_next_round(tournament=t)
    except ValidationError:
        return None  # someone else paired it meanwhile
    if rnd is not None:
        start_round(round_=rnd)
    return rnd
