"""When a signed-in person last looked at a match (its page or its live fragment), kept
in the cache only: "your move" reminders (notifications) skip someone who is watching.
Losing it costs at most a reminder too many, so a cache that is down fails open."""

from __future__ import annotations

import logging
import time

from django.core.cache import cache

logger = logging.getLogger(__name__)

# Longer than any "have you looked lately" question asked of it (10 minutes).
VISIT_TTL_S = 30 * 60


def _key(match_id: int, user_id: int) -> str:
    return f"match_visit:{match_id}:{user_id}"


def note_visit(match_id: int, user) -> None:
    """Record that `user` looks at the match now (nothing for an anonymous viewer)."""
    if not getattr(user, "is_authenticated", False):
        return
    try:
        cache.set(_key(match_id, user.pk), time.time(), VISIT_TTL_S)
    except Exception:  # noqa: BLE001  (a page never fails for this)
        logger.warning("visit of match %s not recorded", match_id)


def last_visit(match_id: int, user_id: int) -> float | None:
    """The epoch seconds of `user_id`'s latest visit of the match, None when unknown."""
    try:
        value = cache.get(_key(match_id, user_id))
    except Exception:  # noqa: BLE001
        return None
    return float(value) if isinstance(value, int | float) else None
