"""The course of a turn: the five phases, and the steps that need nobody's decision.

Decision handlers (rules.py) change the state and set `stage`; `advance`
then runs the automatic steps until a decision stage is reached.
"""

from __future__ import annotations

from . import endgame, market, village
from .board import Board
from .cards import begin_draws, can_draw, refill_display
from .constants import CAMEL_GOOD
from .state import State


def advance(s: State, board: Board) -> None:
    while True:
        stage = s.stage
        if stage == "start_turn":
            _start_turn(s)
        elif stage == "action":
            _space_action(s)
        elif stage == "market_done":
            endgame.market_done(s, board)
        elif stage == "end_turn":
            _end_turn(s)
        else:
            return


def _start_turn(s: State) -> None:
    p = s.seat
    s.played = -1
    s.moved = 0
    if any(s.hands[p]):
        s.stage = "play"
        s.actor = p
    elif can_draw(s):
        # empty hand: take 2 cards instead of the usual phases
        s.draws_left = 2
        s.after_draw = "end_turn"
        s.draw_reason = "take2"
        begin_draws(s)
    elif not any(any(h) for h in s.hands):
        endgame.game_over(s, stalled=True)  # no card can ever be played again
    else:
        s.stage = "end_turn"  # nothing to take: the turn passes


def play(s: State, board: Board, good: int, count: int, size: int) -> None:
    """Phase 1: the cards are laid out; phase 2 starts (maybe with a route choice)."""
    p = s.seat
    s.hands[p][good] -= count
    s.fields[p][good] += count
    s.played = good
    s.moved = size
    caravan = s.caravans[size]
    ends = board.ends(caravan.pos, caravan.target, s.occupied(size), count)
    if len(ends) > 1:
        s.route = ends
        s.stage = "route"
        s.actor = p
    else:
        move(s, ends[0])


def move(s: State, dest: int) -> None:
    """Phase 2 ends at `dest`; phase 3: 1 card, +1 if the caravan carries the played good."""
    caravan = s.caravans[s.moved]
    caravan.pos = dest
    s.route = []
    carries = any(CAMEL_GOOD[c] == s.played for c in caravan.camels)
    s.draws_left = 2 if carries else 1
    s.after_draw = "action"
    s.draw_reason = "turn"
    begin_draws(s)


def _space_action(s: State) -> None:
    """Phase 4: the great market in the target city, else the village's action."""
    caravan = s.caravans[s.moved]
    if caravan.pos == caravan.target:
        market.begin(s, "great", caravan.pos, s.moved, sorted(caravan.camels, reverse=True))
    else:
        village.start(s, s.tiles[caravan.pos])


def _end_turn(s: State) -> None:
    """Phase 5: refill the display; the next player (clockwise) is on turn."""
    refill_display(s)
    s.seat = (s.seat + 1) % s.n
    s.turn += 1
    s.stage = "start_turn"
