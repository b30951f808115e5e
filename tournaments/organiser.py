"""The organiser's home: his tournaments and what each needs from him now."""

from __future__ import annotations

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games.models import Invitation, InvitationStatus
from tournaments import autostart
from tournaments.models import RoundStatus, TableStatus, Tournament, TournamentStatus

OPEN = (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING)


def _todo(t: Tournament, pending: int, now) -> list[str]:
    todo = []
    if t.paused:
        todo.append(gettext("Paused: resume to go on."))
    if t.status == TournamentStatus.REGISTRATION:
        if pending:
            todo.append(ngettext("%(n)s invitation awaits an answer.",
                                 "%(n)s invitations await an answer.", pending) % {"n": pending})  # fmt: skip
        if t.check_in:
            todo.append(gettext("Check-in open: %(done)s of %(n)s checked in.")
                        % {"done": t.checked_in, "n": t.active_entries})  # fmt: skip
        failure = autostart.failure_text(t)
        if failure:
            todo.append(failure)
        elif t.auto_start and t.starts_at:
            todo.append(gettext("Starts automatically at %(time)s.")
                        % {"time": autostart.when(t.starts_at)})  # fmt: skip
        # With auto-start the sweep starts it (or, paused, once resumed): nothing to do.
        if t.starts_at and t.starts_at <= now and (not t.auto_start or failure):
            todo.append(gettext("Start time reached: start the tournament."))
        elif not t.check_in:
            todo.append(ngettext("Entries open: %(n)s entrant.", "Entries open: %(n)s entrants.",
                                 t.active_entries) % {"n": t.active_entries})  # fmt: skip
    elif t.status == TournamentStatus.RUNNING:
        rounds = list(t.rounds.exclude(status=RoundStatus.FINISHED))
        if t.over_the_board:
            missing = sum(
                r.tables.exclude(status=TableStatus.FINISHED).count()
                for r in rounds if r.status == RoundStatus.RUNNING
            )  # fmt: skip
            if missing:
                todo.append(ngettext("%(n)s result missing.", "%(n)s results missing.", missing)
                            % {"n": missing})  # fmt: skip
        for r in rounds:
            if r.status == RoundStatus.PAIRED:
                todo.append(gettext("%(round)s is paired: start it.") % {"round": r})
            elif r.deadline and r.deadline <= now:
                todo.append(gettext("%(round)s is past its deadline.") % {"round": r})
        if not rounds and not t.paused and not t.auto_advance:
            todo.append(gettext("Round due: pair the next round."))
    return todo


def my_tournaments(user) -> list[dict]:
    """Open ones first, then the latest finished or cancelled (at most 100 in all)."""
    qs = (
        Tournament.objects.filter(organiser=user)
        .annotate(
            active_entries=Count("entries", filter=Q(entries__withdrawn_after__isnull=True)),
            checked_in=Count("entries", filter=Q(entries__checked_in_at__isnull=False)),
        )
        .order_by("-created_at")
    )
    rows = list(qs.filter(status__in=OPEN)[:100])
    rows += list(qs.exclude(status__in=OPEN)[: max(0, 100 - len(rows))])
    ids = [t.pk for t in rows]
    pending: dict[int, int] = {}
    for target in Invitation.objects.filter(
        target_kind="tournament", target_id__in=ids, status=InvitationStatus.PENDING
    ).values_list("target_id", flat=True):  # fmt: skip
        pending[target] = pending.get(target, 0) + 1
    now = timezone.now()
    return [{"t": t, "todo": _todo(t, pending.get(t.pk, 0), now)} for t in rows]
