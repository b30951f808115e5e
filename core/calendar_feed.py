"""A person's calendar feed (/calendar/<token>.ics): the rounds and deadlines of the
tournaments she is entered in (the events of each tournament's own .ics,
tournaments.exports.tournament_events) and, in her correspondence games, the time her
move is due.

The address is the secret (Player.calendar_token, made by
games.services.players.new_calendar_token): calendar programs subscribe without logging
in. It shows nothing but her own schedule. Like the account pages this module reads
games and tournaments (imported inside the functions).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

# A time control this long per decision (or on the clock) is played over days, not at
# one sitting: its deadlines belong in a calendar.
CORRESPONDENCE_S = 24 * 3600
TOURNAMENTS_MAX = 100  # the latest ones she entered; older finished events drop out


def player_for_token(token: str):
    """The active person whose feed this is, or None (unknown, rotated, blank)."""
    from games.models import Player, PlayerKind

    if not token:
        return None
    return (
        Player.objects.filter(
            calendar_token=token, kind=PlayerKind.HUMAN, is_active=True, user__is_active=True
        )
        .select_related("user")
        .first()
    )


def is_correspondence(match) -> bool:
    return any(
        (value or 0) >= CORRESPONDENCE_S
        for value in (match.per_move_s, match.initial_s, match.increment_s)
    )


def feed_events(player, *, absolute) -> list[dict]:
    """Her events for tournaments.exports.calendar_text; `absolute(path)` makes a link."""
    from tournaments import exports
    from tournaments.models import Entry

    events: list[dict] = []
    entries = (
        Entry.objects.filter(player=player, withdrawn_after__isnull=True)
        .select_related("tournament")
        .order_by("-created_at")[:TOURNAMENTS_MAX]
    )
    for entry in entries:
        t = entry.tournament
        url = absolute(reverse("tournament-detail", args=[t.pk]))
        events += exports.tournament_events(t, url=url)
    return events + move_events(player, absolute=absolute)


def move_events(player, *, absolute) -> list[dict]:
    """Her correspondence games where it is her move: one event at the time it is due
    (the match's deadline, which the runner sets from the limit or her clock). The UID is
    the match's, so a subscribed calendar moves the event from one move to the next."""
    from games.engines.registry import ENGINES
    from games.models import Match, MatchStatus, Seat

    mine = Seat.objects.filter(player=player, forfeited=False)
    matches = Match.objects.filter(
        status=MatchStatus.RUNNING, deadline__isnull=False, pk__in=mine.values("match_id")
    )
    out = []
    for match in matches.order_by("deadline"):
        if not is_correspondence(match):
            continue
        seat = Seat.objects.filter(match=match, index=match.to_act).only("player_id").first()
        if seat is None or seat.player_id != player.pk:
            continue
        engine = ENGINES.get(match.game)
        game = gettext(engine.title) if engine else match.game
        out.append({
            "uid": f"match-{match.pk}-{match.created_at:%Y%m%d%H%M%S}-move",
            "start": match.deadline, "end": None,
            "summary": gettext("Your move is due: %(game)s, match %(id)s")
            % {"game": game, "id": match.pk},
            "url": absolute(reverse("match-detail", args=[match.pk])),
        })  # fmt: skip
    return out


def feed_text(player, *, absolute, host: str) -> str:
    """The feed, in her language and named in it, times in UTC, her zone named."""
    from tournaments import exports

    language = player.language or settings.LANGUAGE_CODE
    with translation.override(language):
        events = feed_events(player, absolute=absolute)
        name = gettext("Caravan Club: %(name)s") % {"name": player.name}
        zone = player.time_zone or settings.TIME_ZONE
        return exports.calendar_text(events, name=name, zone=zone, host=host)


REFRESH = timedelta(hours=1)  # what the feed suggests to calendar programs (Cache-Control)
