"""A quick evaluation for bots: how good the state looks for one seat, in [0, 1].

It uses only what that seat may know. Each player's expected score is
summed over the villages they control: faces the seat has seen count
exactly, the others by the owner's unseen chips (counts per face), with
plague and herb weighed by the chance that a stack holds them (as if the
chips were independent). Chips in the active supply are worth a little to
their owner (less and less as the rounds go by, little once the end is
announced); chips in the passive supply and chips that left the game are
worth nothing. The seat's estimate is then compared with the best
opponent's.
"""

from __future__ import annotations

import math

from .board import Board
from .constants import (
    CHINA,
    CHINESE,
    FACE_COUNTS,
    HERB,
    KNOWN_SHIFT,
    MONGOL,
    PEASANT,
    PLAGUE,
)
from .scoring import scores
from .state import State

# Points a chip not yet laid is worth to its owner: in the active supply it
# can be laid next turn; in the passive supply nothing yet (so drawing chips
# looks better than hoarding them, and the end comes nearer); after the end
# is announced few can still be laid. Less and less as the rounds go by:
# chips never laid score nothing. Games last about 10-30 rounds.
ACTIVE_CHIP = 0.5
PASSIVE_CHIP = 0.0
ACTIVE_CHIP_ENDING = 0.25
FADE_ROUNDS = 30
SCALE = 8.0  # a lead of this many points makes a clear favourite


def _terms(p: tuple[float, ...], side: int) -> tuple[float, float, float, float, float]:
    """A chip with face probabilities p in a village on `side`: its points without
    plague/herb, with plague only, with herb only; chances it is not plague, not herb."""
    home = CHINESE if side == CHINA else MONGOL
    away = MONGOL if home == CHINESE else CHINESE
    warriors = p[CHINESE] + p[MONGOL]
    return (
        3.0 * (p[home] - p[away]) + p[PEASANT],
        -3.0 * warriors - p[PEASANT],
        3.0 * warriors + p[PEASANT],
        1.0 - p[PLAGUE],
        1.0 - p[HERB],
    )


_EXACT = [tuple(1.0 if f == g else 0.0 for g in range(5)) for f in range(5)]
# per side, per face: the terms of a chip whose face is known
_KNOWN_TERMS = [[_terms(_EXACT[f], side) for f in range(5)] for side in (0, 1)]


def expected_points(s: State, seat: int) -> list[float]:
    """Each player's expected score from the villages they control now."""
    if s.over:
        return [float(x) for x in scores(s)]
    n = s.n
    bit = 1 << (seat + KNOWN_SHIFT)
    stacks = s.stacks
    # The faces of other players' chips that the seat has not seen follow the
    # counts of each owner's chips it has not seen.
    pools = [list(FACE_COUNTS) for _ in range(n)]
    for stack in stacks:
        for c in stack:
            if c & bit:
                pools[(c >> 3) & 3][c & 7] -= 1
    # table[side][key]: key = face (0-4) for a seen chip, 5 + owner for an unseen one
    tables = []
    for side in (0, 1):
        row = list(_KNOWN_TERMS[side])
        for o in range(n):
            total = sum(pools[o])
            if o == seat or total <= 0:
                row.append((0.0, 0.0, 0.0, 1.0, 1.0))
            else:
                row.append(_terms(tuple(k / total for k in pools[o]), side))
        tables.append(row)
    est = [0.0] * n
    side = s.side
    for v, stack in enumerate(stacks):
        if not stack:
            continue
        table = tables[side[v]]
        normal = plague_pts = herb_pts = 0.0
        no_plague = no_herb = 1.0
        for c in stack:
            t = table[c & 7] if c & bit else table[5 + ((c >> 3) & 3)]
            normal += t[0]
            plague_pts += t[1]
            herb_pts += t[2]
            no_plague *= t[3]
            no_herb *= t[4]
        only_plague = (1.0 - no_plague) * no_herb
        only_herb = (1.0 - no_herb) * no_plague
        est[(stack[-1] >> 3) & 3] += (
            only_plague * plague_pts
            + only_herb * herb_pts
            + (1.0 - only_plague - only_herb) * normal
        )
    return est


def evaluate(s: State, board: Board, seat: int) -> float:
    est = expected_points(s, seat)
    if not s.over:
        if s.announced < 0:
            fade = max(0.0, 1.0 - s.round / FADE_ROUNDS)
            active, passive = ACTIVE_CHIP * fade, PASSIVE_CHIP * fade
            for p in range(s.n):
                est[p] += active * sum(s.active_chips[p]) + passive * sum(s.passive[p])
        else:
            for p in range(s.n):
                est[p] += ACTIVE_CHIP_ENDING * sum(s.active_chips[p])
    best_other = max(est[p] for p in range(s.n) if p != seat)
    return 0.5 + 0.5 * math.tanh((est[seat] - best_other) / SCALE)
