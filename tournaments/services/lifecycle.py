"""A tournament's life cycle beyond start and finish: pause, resume, cancel, and the
server's cap on rounds.

- Paused: no round is paired (neither automatically nor by the button) until resumed;
  tables already playing keep going and their results count.
- Cancelled: running tournament matches that may still be aborted (no human has made a
  decision yet, as for any match) are aborted; the others are left to finish as ordinary
  matches (rated if the tournament was) — aborting them would take a game from players
  who are in the middle of it.
- Undo cancel: within UNDO_CANCEL_WINDOW the organiser may undo it (the status before is
  restored, unpaused) unless the cancel aborted a match: an aborted match can't be
  restarted, and its table would wait forever for a result. The confirmation page says
  so before (``cancel_preview``). Results of the matches left running still reach their
  tables meanwhile, so an undone tournament goes on where it was (and advances if a round
  finished meanwhile).
- Rounds: however a format or a stored config behaves, no tournament pairs more rounds
  than its format plans (Swiss: its rounds; round robin / league: the schedule) and never
  more than HARD_ROUND_CAP.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from core import permissions
from games import services as game_services
from games.models import Match
from tournaments import format_rows
from tournaments.models import Tournament, TournamentStatus
from tournaments.services import rounds, versions

logger = logging.getLogger(__name__)

# A backstop against a format that never ends: a double round robin of the largest
# limited field (1024 entrants) plays 2046 rounds; Swiss is capped by its config (<= 100).
HARD_ROUND_CAP = 2048
CAPPED_FORMATS = {"swiss", "round_robin", "league"}

UNDO_CANCEL_WINDOW = timedelta(minutes=10)


def _locked(tournament: Tournament, by) -> Tournament:
    if not permissions.may_manage_tournament(by, tournament):
        raise PermissionDenied(gettext("Only the organiser can do that."))
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def pause(*, tournament: Tournament, by) -> Tournament:
    with transaction.atomic():
        t = _locked(tournament, by)
        if t.status not in (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING):
            raise ValidationError(
                gettext("Only a tournament that is not over can be paused."), code="over"
            )
        if t.paused:
            raise ValidationError(
                gettext("The tournament is already paused."), code="already_paused"
            )
        t.paused = True
        t.save(update_fields=["paused"])
        versions.touch(t.pk)
        return t


def resume(*, tournament: Tournament, by) -> Tournament:
    """Unpause; a running tournament whose round finished meanwhile moves on at once."""
    with transaction.atomic():
        t = _locked(tournament, by)
        if not t.paused:
            raise ValidationError(gettext("The tournament is not paused."), code="not_paused")
        t.paused = False
        t.save(update_fields=["paused"])
        versions.touch(t.pk)
    if t.status == TournamentStatus.RUNNING and t.auto_advance:
        rounds.advance_tournament(tournament_id=t.pk)
    t.refresh_from_db()
    return t


def _in_play(t: Tournament):
    return Match.objects.filter(table__round__tournament=t, status__in=["pending", "running"])


def cancel(*, tournament: Tournament, by) -> Tournament:
    with transaction.atomic():
        t = _locked(tournament, by)
        if t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            raise ValidationError(gettext("The tournament is already over."), code="over")
        now = timezone.now()  # before the aborts: undo_cancel counts those since
        for match in _in_play(t):
            try:
                with transaction.atomic():  # a savepoint: one match's refusal keeps the rest
                    game_services.abort_match(match_id=match.pk, user=by)
            except game_services.MatchError as exc:
                logger.info(
                    "tournament %s cancelled; match %s left running: %s", t.pk, match.pk, exc
                )
        t.status_before_cancel, t.cancelled_at = t.status, now
        t.status, t.finished_at, t.paused = TournamentStatus.CANCELLED, now, False
        t.save(update_fields=["status", "finished_at", "paused", "status_before_cancel",
                              "cancelled_at"])  # fmt: skip
        versions.touch(t.pk)
        return t


def cancel_preview(t: Tournament) -> dict:
    """What a cancel would do now, for its confirmation page: the matches in play (the
    ones nobody has decided in yet are aborted, and then the cancel can't be undone)."""
    return {"in_play": _in_play(t).count(), "window_minutes": _window_minutes()}


def _window_minutes() -> int:
    return int(UNDO_CANCEL_WINDOW.total_seconds() // 60)


def _aborted_tables(t: Tournament) -> int:
    """The matches the cancel aborted (any abort since: the table waits all the same)."""
    return Match.objects.filter(
        table__round__tournament=t, status="aborted", finished_at__gte=t.cancelled_at
    ).count()


def undo_cancel_until(t: Tournament, *, now: datetime | None = None) -> datetime | None:
    """Until when the cancel can still be undone (None: not cancelled, too late, or it
    aborted a match)."""
    if t.status != TournamentStatus.CANCELLED or t.cancelled_at is None:
        return None
    if not t.status_before_cancel:
        return None
    until = t.cancelled_at + UNDO_CANCEL_WINDOW
    if (now or timezone.now()) >= until or _aborted_tables(t):
        return None
    return until


def undo_cancel(*, tournament: Tournament, by) -> Tournament:
    """Restore the status the tournament had before its cancel, within the window."""
    with transaction.atomic():
        t = _locked(tournament, by)
        if t.status != TournamentStatus.CANCELLED or not t.status_before_cancel:
            raise ValidationError(gettext("The tournament is not cancelled."), code="not_cancelled")
        if t.cancelled_at is None or timezone.now() >= t.cancelled_at + UNDO_CANCEL_WINDOW:
            raise ValidationError(
                gettext("A cancel can be undone only within %(n)s minutes; it was longer ago.")
                % {"n": _window_minutes()},
                code="too_late",
            )
        aborted = _aborted_tables(t)
        if aborted:
            raise ValidationError(
                ngettext(
                    "The cancel aborted %(n)s match, which can't be restarted: the cancel "
                    "can't be undone.",
                    "The cancel aborted %(n)s matches, which can't be restarted: the cancel "
                    "can't be undone.",
                    aborted,
                )
                % {"n": aborted},
                code="matches_aborted",
            )
        t.status, t.status_before_cancel = t.status_before_cancel, ""
        t.cancelled_at = t.finished_at = None
        t.save(update_fields=["status", "status_before_cancel", "cancelled_at", "finished_at"])
        versions.touch(t.pk)
    if t.status == TournamentStatus.RUNNING and t.auto_advance:
        rounds.advance_tournament(tournament_id=t.pk)  # a round may have finished meanwhile
    t.refresh_from_db()
    return t


def round_cap(tournament: Tournament) -> int:
    """The most rounds this tournament may ever pair."""
    if tournament.format in CAPPED_FORMATS:
        try:
            planned = format_rows.format_for(tournament).total_rounds(
                format_rows.entrants(tournament)
            )
        except (ValidationError, ValueError, TypeError):
            planned = None
        if planned is not None:
            return min(planned, HARD_ROUND_CAP)
    return HARD_ROUND_CAP


def may_pair(tournament: Tournament, number: int) -> bool | None:
    """Called by pair_next_round: False = paused (nothing paired), None = past the cap (the
    tournament is over), True = go on."""
    if tournament.paused:
        return False
    if number > round_cap(tournament):
        return None
    return True
