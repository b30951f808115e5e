"""The course of the game between decisions: setup, turns, the end.

``advance`` passes through every point where nobody has a choice (drawing
the starting chips, the start and end of a turn, a refill or use step with
nothing possible, a blocked scout ending the turn) and stops at the next
decision or at the end of the game.

A turn (rulebook "Průběh hry"): refill, taking two pieces one at a time
(a wall from the common supply or a blind chip from the passive supply,
at most 4 of each kind in the active supply, as many as possible when two
cannot be taken); then use all walls, or all chips, or (only when the scout
is blocked) lift the scout off the board.

The end (README, reading 8): the supplies are the common wall supply and
each player's passive chip supply; the end is announced by the player whose
draw leaves two of them empty at the same time (the wall supply counts only
while it holds no piece: pieces that come back refill it). After that
player's turn one more full round is played, the announcer last.
"""

from __future__ import annotations

from .board import Board
from .constants import (
    ACTIVE_LIMIT,
    REFILL,
    ROUND_LIMIT,
    START_ACTIVE_CHIPS,
    START_ACTIVE_WALLS,
    START_CHIPS,
)
from .moves import blocked_mask, can_step
from .state import State


def draw_chip(s: State, seat: int) -> int:
    """Take a random chip from the seat's passive supply; returns its face."""
    passive = s.passive[seat]
    r = s.rng.randrange(sum(passive))
    for face, k in enumerate(passive):
        if r < k:
            passive[face] -= 1
            return face
        r -= k
    raise AssertionError("empty passive supply")


def can_draw_wall(s: State, seat: int) -> bool:
    return s.wall_supply > 0 and s.active_walls[seat] < ACTIVE_LIMIT


def can_draw_chip(s: State, seat: int) -> bool:
    return any(s.passive[seat]) and sum(s.active_chips[seat]) < ACTIVE_LIMIT


def empty_supplies(s: State) -> int:
    """Supplies empty right now: the common wall supply while it holds no piece,
    and every empty passive chip supply (those never refill)."""
    return (s.wall_supply == 0) + sum(1 for p in s.passive if not any(p))


def note_draw(s: State) -> None:
    """Called right after every draw. Only a draw empties a supply, so the
    draw that leaves two supplies empty at once is the one that announces."""
    if s.announced < 0 and empty_supplies(s) >= 2:
        s.announced = s.seat


def scout_blocked(s: State, board: Board, seat: int) -> bool:
    v = s.scouts[seat]
    if v < 0:
        return False
    saved = s.visited
    s.visited = 1 << v
    try:
        return not can_step(s, board, v, blocked_mask(s, seat))
    finally:
        s.visited = saved


def use_options(s: State, board: Board) -> list[str]:
    seat = s.seat
    out = []
    if s.active_walls[seat]:
        out.append("walls")
    if any(s.active_chips[seat]):
        out.append("chips")
    if scout_blocked(s, board, seat):
        out.append("lift")
    return out


def return_villages(s: State, board: Board) -> list[int]:
    """Where a lifted scout may be put back ("Osvobození zvěda")."""
    seat = s.seat
    others = 0
    for p, v in enumerate(s.scouts):
        if p != seat and v >= 0:
            others |= 1 << v
    own = []
    for v in range(len(s.stacks)):
        if others >> v & 1 or s.controller(v) != seat:
            continue
        if can_step(s, board, v, others | 1 << v):
            own.append(v)
    if own:
        return own
    free = [v for v, st in enumerate(s.stacks) if not st and not others >> v & 1]
    if free:
        return free
    return [v for v in range(len(s.stacks)) if not others >> v & 1]


def setup_first_villages(s: State, board: Board) -> list[int]:
    """Empty villages with an empty neighbour on the same side."""
    out = []
    stacks, side = s.stacks, s.side
    for v in range(len(stacks)):
        if stacks[v] or v in s.scouts:
            continue
        for w, _line, _road in board.nbrs[v]:
            if not stacks[w] and w not in s.scouts and side[w] == side[v]:
                out.append(v)
                break
    return out


def setup_second_villages(s: State, board: Board) -> list[int]:
    first = s.setup_first
    return sorted(
        w
        for w, _line, _road in board.nbrs[first]
        if not s.stacks[w] and w not in s.scouts and s.side[w] == s.side[first]
    )


def end_turn(s: State) -> None:
    s.stage = "end_turn"


def advance(s: State, board: Board) -> None:
    """Run the automatic steps until a decision is due or the game is over."""
    while not s.over:
        stage = s.stage
        seat = s.seat
        if stage == "setup_begin":
            for _ in range(START_CHIPS):
                s.hand[draw_chip(s, seat)] += 1
            s.setup_first = -1
            s.visited = 0
            s.stage = "setup_chip"
        elif stage == "setup_done":
            for p in range(s.n):
                for _ in range(START_ACTIVE_WALLS):
                    s.wall_supply -= 1
                    s.active_walls[p] += 1
                for _ in range(START_ACTIVE_CHIPS):
                    s.active_chips[p][draw_chip(s, p)] += 1
            s.seat = 0
            s.setup_first = -1
            s.visited = 0
            s.stage = "start_turn"
        elif stage == "start_turn":
            s.turn += 1
            s.draws = REFILL
            s.visited = 0
            s.stage = "draw"
        elif stage == "draw":
            if s.draws > 0 and (can_draw_wall(s, seat) or can_draw_chip(s, seat)):
                return
            s.draws = 0
            s.stage = "use"
        elif stage == "use":
            if use_options(s, board):
                return
            end_turn(s)
        elif stage == "move":
            v = s.scouts[seat]
            if can_step(s, board, v, blocked_mask(s, seat)):
                return
            # Blocked: the turn ends, the remaining chips leave the game.
            lost, active = s.lost[seat], s.active_chips[seat]
            for face in range(5):
                lost[face] += active[face]
                active[face] = 0
            end_turn(s)
        elif stage == "wall":
            # A free line next to the network always exists (walls.placeable).
            if s.active_walls[seat]:
                return
            end_turn(s)
        elif stage == "end_turn":
            _finish_turn(s)
        else:  # a decision stage
            return


def _finish_turn(s: State) -> None:
    seat = s.seat
    s.visited = 0
    s.draws = 0
    if s.announced == seat:
        if s.final:
            s.over = True
            s.stage = "over"
            return
        s.final = True
    if seat == s.n - 1:
        s.round += 1
        if s.announced < 0 and s.round >= ROUND_LIMIT:
            s.announced = seat
            s.final = True
    s.seat = (seat + 1) % s.n
    s.stage = "start_turn"
