"""The planned start: an organiser may have the tournament start itself at ``starts_at``.

The periodic sweep (tournaments.tasks.sweep_tournaments, every 10 s) calls
``start_due``; each due tournament is started through ``rounds.start_tournament``, the
service behind the organiser's Start button, so check-in (unchecked entrants withdrawn
before round 1), the format's minimum of entrants and the rest hold alike.

- Exactly once: the tournament's row is locked and the conditions read again under the
  lock, so two sweeps at once (two beat processes, a slow sweep overlapping the next)
  start it once; the second sees it running and does nothing.
- A refusal (too few entrants, ...) is recorded once (``auto_start_failed_at`` and
  ``auto_start_failure``) and not retried: the page and "My tournaments" say why, and the
  organiser starts it by hand or sets a new planned start (which clears the record).
- Paused: not started while paused; once resumed it starts at the next sweep if the
  time has passed. Cancelled / already started: never.
- Unexpected errors (the database away, a bug) are logged and retried at the next sweep:
  they say nothing about the tournament itself.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core import permissions, timezones
from tournaments import format_rows, formats
from tournaments.models import Tournament, TournamentStatus
from tournaments.services import rounds, versions
from tournaments.services.setup import clean_planned_start

logger = logging.getLogger(__name__)

STARTED, NOT_DUE, FAILED = "started", "not due", "failed"


def _due_filter(now: datetime) -> dict:
    return {
        "status": TournamentStatus.REGISTRATION, "auto_start": True, "paused": False,
        "auto_start_failed_at__isnull": True, "starts_at__lte": now,
    }  # fmt: skip


def due_ids(now: datetime | None = None) -> list[int]:
    return list(
        Tournament.objects.filter(**_due_filter(now or timezone.now()))
        .order_by("starts_at", "pk")
        .values_list("pk", flat=True)
    )


def start_if_due(*, tournament_id: int, now: datetime | None = None) -> str:
    """Start the tournament if its planned start has come (STARTED), record why not if the
    start is refused (FAILED), or leave it (NOT_DUE: not yet, paused, already started,
    cancelled, refused before, or the organiser turned auto-start off meanwhile)."""
    now = now or timezone.now()
    with transaction.atomic():
        # The lock first, then the check: a second sweep waits here and then sees RUNNING.
        t = Tournament.objects.select_for_update().filter(pk=tournament_id, **_due_filter(now))
        t = t.first()
        if t is None:
            return NOT_DUE
        try:
            with transaction.atomic():  # a savepoint: a refusal undoes the start's writes
                rounds.start_tournament(tournament=t)
        except (ValidationError, ValueError) as exc:  # ValueError: a format's FormatError
            messages = exc.messages if isinstance(exc, ValidationError) else [str(exc)]
            t.auto_start_failed_at, t.auto_start_failure = now, _failure(t, messages)
            t.save(update_fields=["auto_start_failed_at", "auto_start_failure"])
            versions.touch(t.pk)
            logger.info("tournament %s: automatic start refused: %s", t.pk, messages)
            return FAILED
    logger.info("tournament %s started automatically", tournament_id)
    return STARTED


def start_due(now: datetime | None = None) -> dict[int, str]:
    """Called by the sweep: every due tournament, each in its own transaction."""
    outcomes = {}
    for pk in due_ids(now):
        try:
            outcomes[pk] = start_if_due(tournament_id=pk, now=now)
        except Exception:  # one tournament's trouble must not stop the others' start
            logger.exception("tournament %s: automatic start failed; retried next sweep", pk)
    return outcomes


def minimum_entrants(t: Tournament) -> int | None:
    """The fewest entrants the tournament's format starts with (None: its settings are
    wrong whatever the count). Asked of the format itself, with stand-in entrants."""
    try:
        fmt = format_rows.format_for(t)
    except ValidationError:
        return None
    for n in range(1, 2 * formats.types.MAX_TABLE_SIZE + 1):
        try:
            fmt.validate([formats.Entrant(id=i) for i in range(1, n + 1)])
        except (ValueError, TypeError):
            continue
        return n
    return None


def playing_entrants(t: Tournament) -> int:
    """Who would be paired at the start: not withdrawn nor waiting and, with check-in,
    checked in."""
    qs = t.entries.filter(withdrawn_after__isnull=True, waitlisted_at__isnull=True)
    if t.check_in:
        qs = qs.filter(checked_in_at__isnull=False)
    return qs.count()


def _failure(t: Tournament, messages: list[str]) -> dict:
    needed, playing = minimum_entrants(t), playing_entrants(t)
    if needed is not None and playing < needed:
        return {"code": "too_few", "entrants": playing, "needed": needed}
    return {"code": "refused", "reason": " ".join(messages)[:500]}


def when(moment: datetime) -> str:
    """A moment in the reader's zone, language and format, with the zone's name."""
    return timezones.when(moment)


def failure_text(t: Tournament) -> str:
    """Why the automatic start did not happen, in the reader's language ("" if it did)."""
    failure = t.auto_start_failure
    if t.auto_start_failed_at is None or not failure:
        return ""
    at = when(t.starts_at or t.auto_start_failed_at)
    if failure.get("code") == "too_few":
        return gettext(
            "Not started automatically at %(time)s: too few entrants (%(n)s; the format "
            "needs at least %(needed)s)."
        ) % {"time": at, "n": failure.get("entrants"), "needed": failure.get("needed")}
    return gettext("Not started automatically at %(time)s: %(reason)s") % {
        "time": at, "reason": failure.get("reason", ""),
    }  # fmt: skip


def plan_start(*, tournament: Tournament, by, starts_at, auto_start: bool) -> Tournament:
    """The organiser sets, moves or clears the planned start before the tournament starts.
    A new plan forgets an earlier refusal: the sweep tries again at the new time. A past
    start may be kept as it is only with auto-start off (e.g. turning it off afterwards)."""
    if not permissions.may_manage_tournament(by, tournament):
        raise PermissionDenied(gettext("Only the organiser can do that."))
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.status != TournamentStatus.REGISTRATION:
            raise ValidationError(
                gettext("The planned start can be changed only before the tournament starts."),
                code="started",
            )
        if not (auto_start is False and _same_minute(starts_at, t.starts_at)):
            starts_at = clean_planned_start(starts_at, auto_start)
        t.starts_at, t.auto_start = starts_at, auto_start
        t.auto_start_failed_at = t.auto_start_failure = None
        t.save(update_fields=["starts_at", "auto_start", "auto_start_failed_at",
                              "auto_start_failure"])  # fmt: skip
        versions.touch(t.pk)
        return t


def _same_minute(given, stored) -> bool:
    """The page's datetime-local box holds minutes: the stored plan sent back unchanged."""
    if not isinstance(given, datetime) or stored is None:
        return False
    if timezone.is_naive(given):
        given = timezone.make_aware(given)
    return given.replace(second=0, microsecond=0) == stored.replace(second=0, microsecond=0)
