"""The tournament events people are told of (notifications.notify, imported lazily: the
notifications app sits above this one): the tournament started, a round paired, a result
to confirm, a result corrected. Each runs after the commit of its write (`after_commit`).

No "check-in is open" notice: check-in is open from the tournament's creation until its
start (entrants.check_in), there is no moment at which it opens."""

from __future__ import annotations

import logging

from django.urls import reverse

from tournaments.models import Round, Table, TableSeat, Tournament
from tournaments.services.table_names import names_of

logger = logging.getLogger(__name__)


def _table_data(table: Table, names: dict[int, str]) -> dict:
    rnd = table.round
    return {"tournament": rnd.tournament.name, "round": rnd.number, "round_label": rnd.label,
            "table": table.number, "table_name": names.get(table.number, "")}  # fmt: skip


def _url(table: Table) -> str:
    return reverse("table-detail", args=[table.round.tournament_id, table.pk])


def _seated(table: Table) -> list:
    return [
        s.entry.player for s in table.seats.select_related("entry__player__user").order_by("index")
    ]


def round_paired(round_id: int) -> None:
    """Every seated human of the round: her table (number, name) and her opponents. Two
    queries whatever the round's size (a bot round of 250 tables has nobody to tell)."""
    from notifications.services import notify

    rnd = Round.objects.select_related("tournament").get(pk=round_id)
    seats = (
        TableSeat.objects.filter(table__round=rnd)
        .select_related("entry__player__user", "table")
        .order_by("table__number", "index")
    )
    by_table: dict[int, list] = {}
    for seat in seats:
        by_table.setdefault(seat.table.number, []).append(seat)
    names = names_of(rnd.tournament)
    for table_seats in by_table.values():
        if not any(s.entry.player.user_id for s in table_seats):
            continue
        table = table_seats[0].table
        table.round = rnd
        for seat in table_seats:
            p = seat.entry.player
            if p.user_id is None:
                continue
            data = _table_data(table, names)
            data["opponents"] = [str(s.entry.player) for s in table_seats if s.pk != seat.pk]
            notify(user=p.user, kind="round_paired", key=f"round_paired:{rnd.pk}",
                   url=_url(table), data=data)  # fmt: skip


def after_commit(fn, *args) -> None:
    """`fn(*args)` once the caller's transaction commits; a failure to tell people is
    logged, never the caller's error (the write it follows stands)."""
    from django.db import transaction

    def run():
        try:
            fn(*args)
        except Exception:
            logger.exception("notice %s failed", fn.__name__)

    transaction.on_commit(run)


def result_to_confirm(report) -> None:
    """The table-mates who must still agree to a player's report."""
    from notifications.services import notify

    table = Table.objects.select_related("round__tournament").get(pk=report.table_id)
    reporter = getattr(report.reported_by, "player", None)
    agreed = set(report.confirmed_entries)
    data = _table_data(table, names_of(table.round.tournament))
    data["reporter"] = str(reporter) if reporter else report.reported_by.username
    for seat in table.seats.select_related("entry__player__user"):
        user = seat.entry.player.user
        if seat.entry_id in agreed or user is None or user.pk == report.reported_by_id:
            continue
        notify(user=user, kind="result_to_confirm", key=f"result_to_confirm:{report.pk}",
               url=_url(table), data=data)  # fmt: skip


def result_corrected(table: Table, change_id: int) -> None:
    """The seated humans of a table whose result the organiser changed."""
    from notifications.services import notify

    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    data = _table_data(table, names_of(table.round.tournament))
    for p in _seated(table):
        if p.user_id is not None:
            notify(user=p.user, kind="result_corrected", key=f"result_corrected:{change_id}",
                   url=_url(table), data=data)  # fmt: skip


def tournament_started(tournament_id: int) -> None:
    """Every human entrant who plays (not withdrawn, nor on the waitlist; with check-in,
    the unchecked were withdrawn at the start) and not seated in round 1: one notice each
    at the start, never two (a seated one hears of it from her "round paired")."""
    from games.models import PlayerKind
    from notifications.services import notify

    t = Tournament.objects.get(pk=tournament_id)
    entries = list(
        t.entries.filter(withdrawn_after__isnull=True, waitlisted_at__isnull=True,
                         player__kind=PlayerKind.HUMAN, player__user__isnull=False)
        .select_related("player__user")
    )  # fmt: skip
    if not entries:
        return
    rnd = t.rounds.filter(number=1).first()
    tables = {}
    if rnd is not None:
        rnd.tournament = t
        for seat in TableSeat.objects.filter(table__round=rnd, entry__in=entries).select_related(
            "table"
        ):
            seat.table.round = rnd
            tables[seat.entry_id] = seat.table
    for entry in entries:
        table = tables.get(entry.pk)
        if table is not None:
            continue  # her "round paired" notice says the start, her table and opponents
        data = {"tournament": t.name}
        url = _url(table) if table else reverse("tournament-detail", args=[t.pk])
        notify(user=entry.player.user, kind="tournament_starting",
               key=f"tournament_starting:{t.pk}", url=url, data=data)  # fmt: skip
