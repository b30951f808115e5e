"""Rounds: the start of a tournament, pairing the next round (the pure formats decide),
re-pairing one, starting its tables' matches, and advancing when a round is done.

Pairing logic lives in the pure `tournaments.formats` package; this module turns rows
into its types and back, and owns the transactions."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import services as game_services
from games.models import Player
from tournaments import format_rows, formats
from tournaments.models import (
    Bye,
    Round,
    RoundStatus,
    Table,
    TableSeat,
    TableStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.services import entrants, lifecycle, results, setup, versions
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
        rnd = pair_next_round(tournament=t)
        if rnd is not None and t.auto_advance:
            start_round(round_=rnd)
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
            return None
        # Clamped: rows from before round_days was bounded may hold 10^8 days.
        days = min(t.round_days, setup.MAX_ROUND_DAYS) if t.round_days else None
        deadline = timezone.now() + timedelta(days=days) if days else None
        rnd = Round.objects.create(tournament=t, number=number, label=plan.label or f"Round {number}",
                                   deadline=deadline)  # fmt: skip
        _create_tables(rnd, plan)
        t.current_round = number
        t.save(update_fields=["current_round"])
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


def repair_round(*, round_: Round) -> Round:
    """Pair a round again before it starts (e.g. after a late withdrawal)."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
        if rnd.status != RoundStatus.PAIRED:
            raise ValidationError(
                gettext("Only a round that has not started can be paired again."),
                code="round_started",
            )
        t = rnd.tournament
        rnd.tables.all().delete()
        rnd.byes.all().delete()
        played = [r for r in format_rows.played_rounds(t) if r.number < rnd.number]
        plan = _next_round(
            format_rows.format_for(t), format_rows.entrants(t), played, seed=secrets.randbits(31)
        )
        if plan is None:
            raise ValidationError(gettext("Nothing is left to pair."), code="nothing_to_pair")
        _create_tables(rnd, plan)
        versions.touch(t.pk)
        return rnd


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
