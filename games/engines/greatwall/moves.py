"""Where the scout may step ("Zvěd táhne do ..."), and whether it is blocked.

From its village the scout may step to a neighbouring village

* along a road, when no wall piece stands on the line between them (two
  villages with no piece between them are always on the same side);
* through the gate of an open piece on the line between them (to the other
  side of the Great Wall, or across a spur); the piece closes;

or climb onto the wall at an open piece beside its village, walk along the
wall (over closed pieces too: all pieces form one network) and climb down at
another open piece beside the target village; both pieces close.

Never to a village it already stood on this turn (its start included), never
to a village holding another player's scout.

A step is (target village, via): via is () for a road, (gate,) for a gate,
(up, down) for a walk along the wall.
"""

from __future__ import annotations

from .board import Board
from .constants import OPEN
from .state import State


def blocked_mask(s: State, seat: int) -> int:
    """Villages the scout of `seat` may not enter now (visited, other scouts)."""
    mask = s.visited
    for p, v in enumerate(s.scouts):
        if p != seat and v >= 0:
            mask |= 1 << v
    return mask


def steps(s: State, board: Board, v: int, blocked: int) -> list[tuple[int, tuple[int, ...]]]:
    """Every step from village v, sorted by (target, len(via), via)."""
    walls = s.walls
    out: list[tuple[int, tuple[int, ...]]] = []
    for w, line, road in board.nbrs[v]:
        if blocked >> w & 1:
            continue
        if line >= 0 and walls[line]:
            if walls[line] == OPEN:
                out.append((w, (line,)))
        elif road:
            out.append((w, ()))
    ups = [x for x in board.village_lines[v] if walls[x] == OPEN]
    if ups:
        lv = board.line_villages
        for q, state in enumerate(walls):
            if state != OPEN:
                continue
            for b in lv[q]:
                if b == v or blocked >> b & 1:
                    continue
                for p in ups:
                    if p != q:
                        out.append((b, (p, q)))
    out.sort(key=lambda m: (m[0], len(m[1]), m[1]))
    return out


def can_step(s: State, board: Board, v: int, blocked: int) -> bool:
    """Whether any step exists (cheaper than building the list)."""
    walls = s.walls
    for w, line, road in board.nbrs[v]:
        if blocked >> w & 1:
            continue
        if line >= 0 and walls[line]:
            if walls[line] == OPEN:
                return True
        elif road:
            return True
    ups = [x for x in board.village_lines[v] if walls[x] == OPEN]
    if ups:
        lv = board.line_villages
        for q, state in enumerate(walls):
            if state != OPEN:
                continue
            for b in lv[q]:
                if b != v and not blocked >> b & 1 and (len(ups) > 1 or ups[0] != q):
                    return True
    return False


def is_step(s: State, board: Board, v: int, blocked: int, to: int, via: tuple[int, ...]) -> bool:
    """Whether (to, via) is one of steps(s, board, v, blocked)."""
    if to == v or blocked >> to & 1:
        return False
    walls = s.walls
    if len(via) <= 1:
        for w, line, road in board.nbrs[v]:
            if w != to:
                continue
            if line >= 0 and walls[line]:
                return len(via) == 1 and via[0] == line and walls[line] == OPEN
            return not via and road
        return False
    if len(via) == 2:
        up, down = via
        return (
            up != down
            and walls[up] == OPEN
            and walls[down] == OPEN
            and v in board.line_villages[up]
            and to in board.line_villages[down]
        )
    return False
