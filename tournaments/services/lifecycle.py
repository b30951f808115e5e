"""A tournament's life cycle beyond start and finish: pause, resume, cancel, and the
server's cap on rounds.

- Paused: no round is paired (neither automatically nor by the button) until resumed;
  tables already playing keep going and their results count.
- Cancelled: final. Running tournament matches that may still be aborted (no human has
  made a decision yet, as for any match) are aborted; the others are left to finish as
  ordinary matches (rated if the tournament was) — aborting them would take a game from
  players who are in the middle of it. Their results no longer change the tournament.
- Rounds: however a format or a stored config behaves, no tournament pairs more rounds
  than its format plans (Swiss: its rounds; round robin / league: the schedule) and never
  more than HARD_ROUND_CAP.
"""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

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


def cancel(*, tournament: Tournament, by) -> Tournament:
    with transaction.atomic():
        t = _locked(tournament, by)
        if t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            raise ValidationError(gettext("The tournament is already over."), code="over")
        running = Match.objects.filter(
            table__round__tournament=t, status__in=["pending", "running"]
        )
        for match in running:
            try:
                with transaction.atomic():  # a savepoint: one match's refusal keeps the rest
                    game_services.abort_match(match_id=match.pk, user=by)
            except game_services.MatchError as exc:
                logger.info(
                    "tournament %s cancelled; match %s left running: %s", t.pk, match.pk, exc
                )
        t.status, t.finished_at, t.paused = TournamentStatus.CANCELLED, timezone.now(), False
        t.save(update_fields=["status", "finished_at", "paused"])
        versions.touch(t.pk)
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
