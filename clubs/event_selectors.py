"""Reads of a club's events for its page (templates/clubs/_events.html, through
clubs.templatetags.event_tags): upcoming, running and recent ones with their winners."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import F

from clubs.models import Club
from clubs.selectors import may_manage
from tournaments import selectors as tournament_selectors
from tournaments.models import Tournament, TournamentStatus

RECENT = 5  # finished events shown on the club page
UPCOMING = 20


def _events(club: Club):
    return Tournament.objects.filter(club_event__club=club).select_related("club_event")


def club_events(club: Club, user) -> dict:
    """{"upcoming", "running", "recent", "may_add"}: the club's open events by planned start
    (unplanned last), those running, the last finished ones with their winners (the first
    place of the standings: shared firsts all named)."""
    upcoming = list(
        _events(club).filter(status=TournamentStatus.REGISTRATION)
        .order_by(F("starts_at").asc(nulls_last=True), "pk")[:UPCOMING]
    )  # fmt: skip
    running = list(
        _events(club).filter(status=TournamentStatus.RUNNING).order_by("started_at", "pk")
    )
    recent = list(
        _events(club)
        .filter(status=TournamentStatus.FINISHED)
        .order_by("-finished_at", "-pk")[:RECENT]
    )
    for t in recent:
        try:
            rows = tournament_selectors.standings(t)
        except (ValidationError, ValueError, TypeError):  # settings the format can't rank
            rows = []
        t.winners = [r["name"] for r in rows if r.get("rank") == 1]
    return {"upcoming": upcoming, "running": running, "recent": recent,
            "may_add": may_manage(user, club)}  # fmt: skip
