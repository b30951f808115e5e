"""The room's round timer (shown big on the projector view): the organiser starts it,
pauses it and resets it; the time left is computed here, on the server, so every screen
shows the same; static/js/round-timer.js only counts it down between updates.

A round's timer (``Round.timer_minutes``, ``timer_started_at``, ``timer_elapsed_s``):

- stopped: ``timer_started_at`` None, ``timer_elapsed_s`` run before (0: never started);
- running: since ``timer_started_at``, after ``timer_elapsed_s`` run before the last pause.

Running past its length it shows 0:00 and says time is up (it does not end the round:
the results do). Every change bumps the results version, so pages polling the tournament
see it at once.
"""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core import permissions
from tournaments.models import Round, RoundStatus
from tournaments.services import versions

MAX_MINUTES = 600
DEFAULT_MINUTES = 60
_FIELDS = ["timer_minutes", "timer_started_at", "timer_elapsed_s"]


def elapsed_s(rnd: Round, now: datetime | None = None) -> int:
    """Seconds the timer has run, pauses left out."""
    run = rnd.timer_elapsed_s or 0
    if rnd.timer_started_at is not None:
        now = now or timezone.now()
        run += max(0, int((now - rnd.timer_started_at).total_seconds()))
    return run


def clock(seconds: int) -> str:
    """m:ss (minutes past 59 stay minutes: 90:00)."""
    seconds = max(0, int(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def state(rnd: Round | None, now: datetime | None = None) -> dict | None:
    """What a page shows of the round's timer; None when it has no length set."""
    if rnd is None or not rnd.timer_minutes:
        return None
    total = rnd.timer_minutes * 60
    run = elapsed_s(rnd, now)
    remaining = max(0, total - run)
    return {
        "round": rnd,
        "minutes": rnd.timer_minutes,
        "running": rnd.timer_started_at is not None,
        "started": run > 0 or rnd.timer_started_at is not None,
        "elapsed_s": run,
        "remaining_s": remaining,
        "remaining": clock(remaining),
        "over": remaining == 0,
    }


def _check(rnd: Round, by) -> None:
    if not permissions.may_manage_tournament(by, rnd.tournament):
        raise PermissionDenied(gettext("Only the organiser can do that."))


def _locked(rnd: Round) -> Round:
    return Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)


def _save(locked: Round, rnd: Round) -> Round:
    locked.save(update_fields=_FIELDS)
    versions.touch(locked.tournament_id)
    for field in _FIELDS:
        setattr(rnd, field, getattr(locked, field))
    return rnd


def start_timer(*, round_: Round, by, minutes: int | None = None,
                now: datetime | None = None) -> Round:  # fmt: skip
    """Start (or resume after a pause) the round's timer. ``minutes``: its length (1 to
    MAX_MINUTES), needed the first time, may be changed while it is stopped; None keeps
    the length set before (or DEFAULT_MINUTES)."""
    _check(round_, by)
    if minutes is not None and (
        isinstance(minutes, bool) or not isinstance(minutes, int)
        or not 1 <= minutes <= MAX_MINUTES
    ):  # fmt: skip
        raise ValidationError(
            gettext("A round timer runs from 1 to %(max)s minutes.") % {"max": MAX_MINUTES},
            code="timer_minutes",
        )
    now = now or timezone.now()
    with transaction.atomic():
        locked = _locked(round_)
        if locked.status == RoundStatus.FINISHED:
            raise ValidationError(
                gettext("%(round)s is finished: its timer can't be started.") % {"round": locked},
                code="round_finished",
            )
        if locked.timer_started_at is not None:
            raise ValidationError(
                gettext("The timer of %(round)s is already running.") % {"round": locked},
                code="timer_running",
            )
        locked.timer_minutes = minutes or locked.timer_minutes or DEFAULT_MINUTES
        locked.timer_started_at = now
        return _save(locked, round_)


def pause_timer(*, round_: Round, by, now: datetime | None = None) -> Round:
    """Stop the timer, keeping the time run so far (start_timer goes on from there)."""
    _check(round_, by)
    now = now or timezone.now()
    with transaction.atomic():
        locked = _locked(round_)
        if locked.timer_started_at is None:
            raise ValidationError(
                gettext("The timer of %(round)s is not running.") % {"round": locked},
                code="timer_not_running",
            )
        locked.timer_elapsed_s = elapsed_s(locked, now)
        locked.timer_started_at = None
        return _save(locked, round_)


def reset_timer(*, round_: Round, by) -> Round:
    """Back to its full length, stopped (the length stays)."""
    _check(round_, by)
    with transaction.atomic():
        locked = _locked(round_)
        locked.timer_started_at = None
        locked.timer_elapsed_s = 0
        return _save(locked, round_)
