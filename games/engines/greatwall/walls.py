"""Wall pieces: where one may be placed, and what a placement does to the Great Wall.

The pieces on the board always form a tree (the wall network) that touches
the board's rim at exactly two towers; the Great Wall is the path between
them, and it splits the villages into Mongolia and China. A new piece must
touch the network. Then:

* it only extends a spur (touches the network at one tower, the other is not
  on the rim): nothing else happens;
* it closes a loop that shares pieces with the Great Wall: the loop's two
  parts between the towers where it leaves and rejoins the Great Wall are
  compared; the longer part stays, the shorter goes (a tie: the newer part
  goes, which is the part with the new piece);
* it closes a loop that shares no piece with the Great Wall: the enclosed
  land already lies on one side and there is no Great Wall part to
  replace, so the loop is opened by removing the new piece (README);
* it reaches another rim tower: the network now has three ends; the three
  branches from the tower where they meet compete and the shortest goes
  (a tie: the newer branch goes, the one whose newest piece is newer).

Pieces left without a connection to the Great Wall go too. Removed pieces
return to the common supply, or leave the game during the final round.
When the Great Wall changed, the villages between its old and new course
switch sides.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import Board
from .constants import NO_WALL, OPEN
from .state import State


@dataclass
class Placement:
    """What placing one piece did (for tests, labels and the log)."""

    line: int
    kind: str = "spur"  # "spur", "loop", "spur_loop" or "new_end"
    removed: list[int] = field(default_factory=list)  # the part that lost, in path order
    isolated: list[int] = field(default_factory=list)  # pieces cut off from the Great Wall
    flipped: list[int] = field(default_factory=list)  # villages that changed sides


def network_mask(s: State, board: Board) -> int:
    """Bitmask of the towers the wall network touches."""
    net = 0
    tm = board.line_tmask
    for line, w in enumerate(s.walls):
        if w:
            net |= tm[line]
    return net


def placeable(s: State, board: Board) -> list[int]:
    """Free wall lines that touch the wall network, in line order.

    Never empty: if every line at a network tower held a piece, the network
    would be all of the (connected) wall lines, more than the 28 pieces."""
    net = network_mask(s, board)
    walls = s.walls
    return [line for line, tm in enumerate(board.line_tmask) if not walls[line] and net & tm]


def can_place(s: State, board: Board, line: int) -> bool:
    return not s.walls[line] and bool(network_mask(s, board) & board.line_tmask[line])


def tree_path(s: State, board: Board, a: int, b: int, skip: int = -1) -> list[int]:
    """The lines of the network path from tower a to tower b (a tree: it is unique)."""
    walls = s.walls
    adj = board.tower_adj
    prev = [-2] * len(adj)  # line used to reach a tower; -1 at a
    prev[a] = -1
    todo = [a]
    pop, push = todo.pop, todo.append
    while todo:
        t = pop()
        if t == b:
            break
        for line, u in adj[t]:
            if prev[u] == -2 and line != skip and walls[line]:
                prev[u] = line
                push(u)
    if prev[b] == -2:
        raise AssertionError("the wall network is not connected")
    path = []
    t = b
    lt = board.line_towers
    while t != a:
        line = prev[t]
        path.append(line)
        t1, t2 = lt[line]
        t = t2 if t == t1 else t1
    path.reverse()
    return path


def ends(s: State, board: Board) -> tuple[int, int]:
    """The two rim towers where the Great Wall ends, in the order of s.great_wall."""
    gw = s.great_wall
    lt = board.line_towers
    first = set(lt[gw[0]]) - set(lt[gw[1]])
    last = set(lt[gw[-1]]) - set(lt[gw[-2]])
    return first.pop(), last.pop()


def _loser(parts: list[list[int]], age: list[int]) -> list[int]:
    """The shortest part; on equal length the newer (whose newest piece is newer)."""
    return min(parts, key=lambda part: (len(part), -max(age[x] for x in part)))


def place(s: State, board: Board, line: int) -> Placement:
    """Place an open piece on `line` (must be placeable) and resolve the wall."""
    t1, t2 = board.line_towers[line]
    walls = s.walls
    lat = board.lines_at_tower
    in1 = any(walls[x] for x in lat[t1])
    in2 = any(walls[x] for x in lat[t2])
    walls[line] = OPEN
    s.placed += 1
    s.age[line] = s.placed
    result = Placement(line)
    if in1 and in2:
        cycle = tree_path(s, board, t1, t2, skip=line)
        cycle.append(line)
        on_gw = set(s.great_wall)
        shared = [x for x in cycle if x in on_gw]
        if not shared:
            result.kind = "spur_loop"
            result.removed = [line]
            _take_off(s, [line])
            return result
        result.kind = "loop"
        detour = [x for x in cycle if x not in on_gw]
        result.removed = _loser([shared, detour], s.age)
        _rebuild(s, board, result)
    elif (in1 and board.tedge[t2]) or (in2 and board.tedge[t1]):
        result.kind = "new_end"
        new = t2 if in1 else t1
        a, b = ends(s, board)
        to_a = tree_path(s, board, new, a)
        to_b = tree_path(s, board, new, b)
        common = set(to_a) & set(to_b)
        branch = [x for x in to_a if x in common]
        result.removed = _loser(
            [
                branch,
                [x for x in to_a if x not in common],
                [x for x in to_b if x not in common],
            ],
            s.age,
        )
        _rebuild(s, board, result)
    return result


def _take_off(s: State, lines: list[int]) -> None:
    for line in lines:
        s.walls[line] = NO_WALL
    if s.final:
        s.walls_out += len(lines)
    else:
        s.wall_supply += len(lines)


def _rebuild(s: State, board: Board, result: Placement) -> None:
    """Remove the losing part and the pieces cut off; recompute the Great Wall and sides."""
    old = s.great_wall
    _take_off(s, result.removed)
    walls = s.walls
    anchor = next(x for x in old if walls[x])  # a piece of the Great Wall that stays
    # Everything still connected to that piece stays; the rest is isolated.
    lat = board.lines_at_tower
    seen = {anchor}
    todo = [anchor]
    while todo:
        line = todo.pop()
        for t in board.line_towers[line]:
            for x in lat[t]:
                if walls[x] and x not in seen:
                    seen.add(x)
                    todo.append(x)
    result.isolated = [x for x, w in enumerate(walls) if w and x not in seen]
    _take_off(s, result.isolated)
    rims = sorted({t for x in seen for t in board.line_towers[x] if board.tedge[t]})
    if len(rims) != 2:
        raise AssertionError(f"the wall network touches the rim at {len(rims)} towers")
    new = tree_path(s, board, rims[0], rims[1])
    s.great_wall = new
    if set(new) != set(old):
        result.flipped = update_sides(s, board, anchor)


def update_sides(s: State, board: Board, anchor: int) -> list[int]:
    """Recompute the sides from the Great Wall, keeping the side of the villages
    beside `anchor` (a piece on both the old and the new Great Wall). Returns
    the villages that switched."""
    gw = set(s.great_wall)
    old = s.side
    label = [-1] * len(old)
    a = board.line_villages[anchor][0]
    label[a] = old[a]
    todo = [a]
    nbrs = board.nbrs
    while todo:
        v = todo.pop()
        lv = label[v]
        for w, line, _road in nbrs[v]:
            if label[w] < 0:
                label[w] = lv ^ 1 if line in gw else lv
                todo.append(w)
    s.side = label
    return [v for v in range(len(old)) if label[v] != old[v]]
