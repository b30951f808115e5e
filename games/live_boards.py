"""The board pictures live match pages were sent, kept for a short while so the next
update can send the difference (games.board_patch) instead of the whole picture."""

from __future__ import annotations

import logging

from django.core.cache import cache

from games.engines import i18n as engine_i18n

logger = logging.getLogger(__name__)

# A page polls every second or two: a board older than this is not asked for again.
KEEP_S = 120


def _key(match_id: int, seat: int | None, ply: int, language: str) -> str:
    who = "spectator" if seat is None else f"seat{seat}"
    return f"games:live-board:{match_id}:{ply}:{who}:{language}"


def keep(match, seat: int | None, svg: str) -> None:
    """Remember the picture `seat` (None: spectators) is shown at the match's ply."""
    key = _key(match.pk, seat, match.ply, engine_i18n.current_language())
    try:
        cache.add(key, svg, timeout=KEEP_S)  # the same for every viewer of that seat and ply
    except Exception:  # noqa: BLE001 - without the cache the whole board is sent, nothing lost
        logger.warning("live board not kept for match %s", match.pk)


def kept(match, seat: int | None, ply: int) -> str | None:
    """The picture `seat` was shown at `ply`, if still kept."""
    try:
        return cache.get(_key(match.pk, seat, ply, engine_i18n.current_language()))
    except Exception:  # noqa: BLE001
        return None
