"""The organiser's overrides of a paired round before it starts: swap two entrants, move
one to another table (or the bye), unpair the round, forbidden pairs; and their log
(PairingChange: who, when, the round before and after), like ResultChange for results.

Re-pairing a round is `rounds.repair_round` (the format decides); it logs here too."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from games import selectors as game_selectors
from tournaments.models import (
    Bye,
    Entry,
    ForbiddenPairing,
    PairingChange,
    PairingChangeKind,
    Round,
    RoundStatus,
    TableSeat,
    Tournament,
    TournamentStatus,
)
from tournaments.services import versions


# ---- the log ---------------------------------------------------------------------------
def snapshot(rnd: Round) -> dict:
    """The round's pairing as the log stores it: entry ids by seat per table, and byes."""
    seats = TableSeat.objects.filter(table__round=rnd).order_by("table__number", "index")
    tables: dict[int, list[int]] = {}
    for table_number, entry_id in seats.values_list("table__number", "entry_id"):
        tables.setdefault(table_number, []).append(entry_id)
    return {
        "tables": [tables[n] for n in sorted(tables)],
        "byes": sorted(rnd.byes.values_list("entry_id", flat=True)),
    }


def log_change(rnd: Round, *, kind: str, by, before: dict, after: dict | None) -> PairingChange:
    return PairingChange.objects.create(
        tournament_id=rnd.tournament_id, round_number=rnd.number,
        round=rnd if kind != PairingChangeKind.UNPAIR else None,
        kind=kind, before=before, after=after,
        changed_by=by if getattr(by, "is_authenticated", False) else None,
    )  # fmt: skip


# ---- checks ------------------------------------------------------------------------------
def _locked_paired(round_: Round) -> Round:
    """The round, locked, if it may still be changed (paired, not started)."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if rnd.status != RoundStatus.PAIRED:
        raise ValidationError(
            gettext("%(round)s has started: its pairing can no longer be changed.")
            % {"round": rnd},
            code="round_started",
        )
    if rnd.tournament.format in FIXED_BRACKETS:
        # The bracket follows from the seeding; a hand-made table would not be in it.
        raise ValidationError(
            gettext("An elimination bracket follows from the seeding: change the seeds instead."),
            code="bracket_fixed",
        )
    return rnd


FIXED_BRACKETS = ("single_elimination", "double_elimination")


def _place(rnd: Round, entry_id) -> TableSeat | Bye:
    """Where the entry sits in the round: its seat, or its bye (else a ValidationError)."""
    seat = TableSeat.objects.filter(table__round=rnd, entry_id=entry_id).first()
    if seat is not None:
        return seat
    bye = Bye.objects.filter(round=rnd, entry_id=entry_id).first()
    if bye is not None:
        return bye
    raise ValidationError(
        gettext("Entry %(entry)s has no place in %(round)s.") % {"entry": entry_id, "round": rnd},
        code="not_in_round",
    )


def _entry_id(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValidationError(gettext("Pick an entrant."), code="invalid") from None


def _name(entry_id: int) -> str:
    entry = Entry.objects.select_related("player").filter(pk=entry_id).first()
    return str(entry.player) if entry else str(entry_id)


# ---- swap and move -----------------------------------------------------------------------
def swap(*, round_: Round, first, second, by=None) -> PairingChange:
    """Swap two entrants' places (two tables, a table and the bye, or two seats of a table)."""
    a, b = _entry_id(first), _entry_id(second)
    if a == b:
        raise ValidationError(gettext("Pick two different entrants to swap."), code="same_entry")
    with transaction.atomic():
        rnd = _locked_paired(round_)
        place_a, place_b = _place(rnd, a), _place(rnd, b)
        if isinstance(place_a, Bye) and isinstance(place_b, Bye):
            raise ValidationError(
                gettext("Both have a bye: swapping them changes nothing."), code="nothing_to_swap"
            )
        before = snapshot(rnd)
        place_a.entry_id, place_b.entry_id = b, a
        place_a.save(update_fields=["entry"])
        place_b.save(update_fields=["entry"])
        change = log_change(rnd, kind=PairingChangeKind.SWAP, by=by, before=before,
                            after=snapshot(rnd))  # fmt: skip
        versions.touch(rnd.tournament_id)
        return change


def move(*, round_: Round, entry, table: int | None, by=None) -> PairingChange:
    """Move one entrant to another table (by number; None: the bye). Both tables keep a
    number of seats the game plays with."""
    entry_id = _entry_id(entry)
    with transaction.atomic():
        rnd = _locked_paired(round_)
        place = _place(rnd, entry_id)
        engine = game_selectors.engine_for(rnd.tournament.game)
        target = None
        if table is not None:
            target = rnd.tables.filter(number=table).first()
            if target is None:
                raise ValidationError(
                    gettext("%(round)s has no table %(table)s.") % {"round": rnd, "table": table},
                    code="no_such_table",
                )
        if (target is None and isinstance(place, Bye)) or (
            target is not None and isinstance(place, TableSeat) and place.table_id == target.pk
        ):
            raise ValidationError(
                gettext("%(player)s is already there.") % {"player": _name(entry_id)},
                code="same_place",
            )
        if target is not None and target.seats.count() + 1 > engine.max_players:
            raise ValidationError(
                gettext("Table %(table)s is full: the game seats at most %(max)s.")
                % {"table": target.number, "max": engine.max_players},
                code="table_full",
            )
        if isinstance(place, TableSeat):
            left = place.table.seats.count() - 1
            if left < engine.min_players:
                raise ValidationError(
                    gettext(
                        "Table %(table)s would keep %(left)s players; the game needs %(min)s. "
                        "Swap instead."
                    )
                    % {"table": place.table.number, "left": left, "min": engine.min_players},
                    code="table_too_small",
                )
        before = snapshot(rnd)
        if isinstance(place, TableSeat):
            source = place.table
            place.delete()
            # Close the gap, lowest first, so no two seats ever share an index.
            for i, seat in enumerate(source.seats.order_by("index")):
                if seat.index != i:
                    seat.index = i
                    seat.save(update_fields=["index"])
        else:
            place.delete()
        if target is None:
            Bye.objects.create(round=rnd, entry_id=entry_id)
        else:
            TableSeat.objects.create(table=target, index=target.seats.count(), entry_id=entry_id)
        change = log_change(rnd, kind=PairingChangeKind.MOVE, by=by, before=before,
                            after=snapshot(rnd))  # fmt: skip
        versions.touch(rnd.tournament_id)
        return change


# ---- unpair ------------------------------------------------------------------------------
def unpair(*, round_: Round, by=None) -> Tournament:
    """Back to "not paired": the round, its tables and byes deleted, the tournament's
    current round one back, so "Pair next round" pairs it again."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=round_.tournament_id)
        rnd = Round.objects.select_for_update().filter(pk=round_.pk).first()
        if rnd is None:
            raise ValidationError(gettext("That round is not paired."), code="not_paired")
        if rnd.status != RoundStatus.PAIRED:
            raise ValidationError(
                gettext("%(round)s has started: it can no longer be unpaired.") % {"round": rnd},
                code="round_started",
            )
        if rnd.number != t.current_round:
            raise ValidationError(
                gettext("Only the latest round can be unpaired."), code="not_latest"
            )
        # Logged by the tournament and the round's number: the round row goes.
        log_change(rnd, kind=PairingChangeKind.UNPAIR, by=by, before=snapshot(rnd), after=None)
        rnd.delete()
        t.current_round = rnd.number - 1
        t.save(update_fields=["current_round"])
        versions.touch(t.pk)
        return t


# ---- forbidden pairs ---------------------------------------------------------------------
def add_forbidden(*, tournament: Tournament, first, second) -> ForbiddenPairing:
    """Two entrants who must not share a table in rounds paired from now on."""
    a, b = _entry_id(first), _entry_id(second)
    if a == b:
        raise ValidationError(gettext("Pick two different entrants."), code="same_entry")
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            raise ValidationError(gettext("The tournament is over."), code="over")
        found = set(t.entries.filter(pk__in=(a, b)).values_list("pk", flat=True))
        if found != {a, b}:
            raise ValidationError(
                gettext("Both must be entrants of this tournament."), code="not_an_entrant"
            )
        pair = {a, b}
        for f in t.forbidden.all():
            if {f.first_id, f.second_id} == pair:
                raise ValidationError(
                    gettext("%(a)s and %(b)s are already kept apart.")
                    % {"a": _name(a), "b": _name(b)},
                    code="already_forbidden",
                )
        made = ForbiddenPairing.objects.create(tournament=t, first_id=a, second_id=b)
        versions.touch(t.pk)
        return made


def remove_forbidden(*, tournament: Tournament, pairing_id) -> None:
    with transaction.atomic():
        deleted, _kinds = ForbiddenPairing.objects.filter(
            pk=_entry_id(pairing_id), tournament=tournament
        ).delete()
        if not deleted:
            raise ValidationError(gettext("No such forbidden pair."), code="not_found")
        versions.touch(tournament.pk)


def forbidden_pairs(tournament: Tournament) -> list[ForbiddenPairing]:
    return list(
        tournament.forbidden.select_related("first__player", "second__player").order_by("id")
    )


def pairing_log(tournament: Tournament) -> list[PairingChange]:
    """Every override of the tournament's rounds, newest first, with names to show."""
    changes = list(
        PairingChange.objects.filter(tournament=tournament)
        .select_related("round", "changed_by")
        .order_by("-changed_at", "-id")
    )
    ids = {
        e
        for c in changes
        for side in (c.before, c.after or {})
        for e in [*(x for table in side.get("tables", []) for x in table), *side.get("byes", [])]
    }
    # The names the pages show (a guest's typed name, not his internal handle).
    names = {e.pk: str(e.player) for e in Entry.objects.filter(pk__in=ids).select_related("player")}
    for c in changes:
        c.before_rows = _rows(c.before, names)
        c.after_rows = _rows(c.after, names) if c.after is not None else []
    return changes


def _rows(side: dict, names: dict[int, str]) -> list[str]:
    """'1: Ann – Bob', ..., 'bye: Cy' for a logged pairing."""
    rows = [
        f"{i}: " + " – ".join(names.get(e, str(e)) for e in table)
        for i, table in enumerate(side.get("tables", []), start=1)
    ]
    if side.get("byes"):
        rows.append(
            gettext("bye: %(names)s")
            % {"names": ", ".join(names.get(e, str(e)) for e in side["byes"])}
        )
    return rows
