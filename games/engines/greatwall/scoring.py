"""Scoring ("Hodnocení"): every village counts for the player whose chip is on top.

Without plague and herb: each Chinese warrior in China and Mongol rider in
Mongolia +3, each Chinese in Mongolia and Mongol in China -3, each peasant
+1. With plague and no herb: each warrior -3, each peasant -1, wherever the
village lies. With herb and no plague: each warrior +3, each peasant +1.
With both, they cancel: scored as without either. Plague and herb chips
themselves score nothing.
"""

from __future__ import annotations

from .constants import (
    CHINA,
    CHINESE,
    HERB,
    MONGOL,
    MONGOLIA,
    PEASANT,
    PLAGUE,
    chip_face,
    chip_owner,
)
from .state import State


def village_points(faces: list[int], side: int) -> int:
    """Points of a stack (chip faces) in a village on `side`."""
    plague = PLAGUE in faces
    herb = HERB in faces
    warriors = sum(1 for f in faces if f in (CHINESE, MONGOL))
    peasants = sum(1 for f in faces if f == PEASANT)
    if plague and not herb:
        return -3 * warriors - peasants
    if herb and not plague:
        return 3 * warriors + peasants
    home = CHINESE if side == CHINA else MONGOL
    right = sum(1 for f in faces if f == home)
    assert side in (CHINA, MONGOLIA)
    return 3 * right - 3 * (warriors - right) + peasants


def scores(s: State) -> list[int]:
    out = [0] * s.n
    for v, stack in enumerate(s.stacks):
        if stack:
            out[chip_owner(stack[-1])] += village_points([chip_face(c) for c in stack], s.side[v])
    return out


def ranks(scores_: list[int]) -> list[int]:
    """Competition ranking: 1 + the number of players with more points (ties share)."""
    return [1 + sum(1 for other in scores_ if other > mine) for mine in scores_]
