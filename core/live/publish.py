"""Announce that an object changed, once its transaction commits.

Call `publish("match:12")` where the change is written. Readers never trust the message:
it only says "look again"; the version a feed renders comes from the database. So a lost
or doubled announcement costs at most a late or an extra render, never a wrong page.
"""

from __future__ import annotations

import logging

from django.db import transaction

from core.live import backends

log = logging.getLogger(__name__)


def publish(*channels: str) -> None:
    """Announce `channels` after the current transaction commits (at once outside one)."""
    channels = tuple(c for c in channels if c)
    if not channels:
        return
    backend = backends.current()
    if backend.transactional:
        # A row written in the same transaction: seen by readers exactly when it commits.
        backend.publish(channels)
        return
    transaction.on_commit(lambda: _send(backend, channels), robust=True)


def _send(backend, channels) -> None:
    try:
        backend.publish(channels)
    except Exception:  # a page that polls as a fallback is better than a failed write
        log.warning("live: could not publish %s", channels, exc_info=True)


def match_channel(match_id: int) -> str:
    return f"match:{match_id}"


def tournament_channel(tournament_id: int) -> str:
    return f"tournament:{tournament_id}"


def user_channel(user_id: int) -> str:
    return f"user:{user_id}"


def pool_channel(game: str) -> str:
    return f"pool:{game}"


MATCHES_CHANNEL = "matches"  # the match lists: a match created, started or finished
