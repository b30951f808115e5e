"""The results version: what keys the standings cache, the live fragment's cache and its ETag."""

from __future__ import annotations

from django.db.models import F

from tournaments.models import Tournament


def touch(tournament_id: int) -> None:
    """Bump the version that keys the standings cache, the live fragment's cache and its ETag.

    Called on every change the live page shows (results, round starts, entries), not only
    on results: idle viewers get 304s until it moves, so a missed bump is a stale page.
    """
    Tournament.objects.filter(pk=tournament_id).update(results_version=F("results_version") + 1)
