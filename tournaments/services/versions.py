"""The results version: what keys the standings cache, the live fragment's cache and its
ETag; and the announcement that the live pages changed (core/live: the tournament page's
and the projector's push streams)."""

from __future__ import annotations

from django.db.models import F

from core.live.publish import publish, tournament_channel
from tournaments.models import Tournament


def touch(tournament_id: int) -> None:
    """Bump the version that keys the standings cache, the live fragment's cache and its ETag.

    Called on every change the live page shows (results, round starts, entries), not only
    on results: idle viewers get 304s until it moves, so a missed bump is a stale page.
    It announces the change too (after the commit).
    """
    Tournament.objects.filter(pk=tournament_id).update(results_version=F("results_version") + 1)
    announce(tournament_id)


def announce(tournament_id: int) -> None:
    """Tell the tournament's live pages to look again, once the transaction commits.

    ``touch`` does; a change that moves the live version otherwise (the status, the
    current round: selectors.LIVE_FIELDS) calls this itself. A stream that is not told
    shows the change at its next page load only: while it is open, the page's poll stops.
    """
    publish(tournament_channel(tournament_id))
