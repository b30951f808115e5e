"""Victory points: the caravan, souks at the end of a week, buildings, the final ranking."""

from __future__ import annotations

from . import cards, souks
from .board import BOARD
from .constants import B_CARD, B_POINTS, NTH_BUILDING_POINTS, SECTION_POINTS, SOUK_BONUS
from .state import State


def caravan_points(s: State) -> list[int]:
    """Caravan scoring: own cubes x the section of one's last (highest) cube."""
    pts = [0] * s.n
    per = s.per_section
    count = [0] * s.n
    last = [0] * s.n
    for space, p in enumerate(s.caravan):
        count[p] += 1
        last[p] = space // per + 1
    for p in range(s.n):
        pts[p] = count[p] * last[p]
    return pts


def add_to_caravan(s: State, p: int) -> None:
    """A cube of `p` enters the caravan at the first free space.

    `p` scores 1/2/3 by the section; with building 4 `p` draws a card; a
    caravan that becomes full is scored and emptied (cubes back to supply)."""
    space = len(s.caravan)
    s.caravan.append(p)
    s.vp[p] += SECTION_POINTS[space // s.per_section]
    if s.built[p][B_CARD]:
        cards.draw(s, p)
    if len(s.caravan) >= s.capacity:
        for q, pts in enumerate(caravan_points(s)):
            s.vp[q] += pts
        s.caravan = []


def souk_points(s: State) -> list[int]:
    """Points for the complete souks now (building 5 adds 2 a souk)."""
    pts = [0] * s.n
    for k in souks.complete_souks(s):
        p = s.souk_owner[k]
        pts[p] += BOARD.souk_points[k] + (SOUK_BONUS if s.built[p][B_POINTS] else 0)
    return pts


def score_week(s: State) -> None:
    """End of a week: complete souks, then the caravan (kept); souks are then cleared."""
    for p, pts in enumerate(souk_points(s)):
        s.vp[p] += pts
    for p, pts in enumerate(caravan_points(s)):
        s.vp[p] += pts
    souks.clear(s)


def building_points(nth: int) -> int:
    """Points for building one's nth building (1-based)."""
    return NTH_BUILDING_POINTS[nth - 1]


def ranks(scores: list[int]) -> list[int]:
    """Competition ranking, 1 = best; equal scores share a rank (no tie-break in the seed)."""
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]
