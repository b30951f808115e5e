"""Setup ("Příprava hry"): the board with the starting Great Wall, shuffled supplies.

Every wall piece of the starting Great Wall is open. Each player's 17 chips
form the face-down passive supply. Then, from the first seat on, each
player draws two chips, lays them in two neighbouring empty villages on one
side of the wall and puts the scout on one of them (decisions); finally
each player takes 2 walls and 2 blind chips into the active supply.
"""

from __future__ import annotations

from games.engines.rng import GameRandom

from .board import Board
from .constants import FACE_COUNTS, OPEN, WALL_PIECES
from .flow import advance
from .state import State

# The rulebook's start player ("the one with the narrowest eyes") becomes seat 1: seat=0 below.
START_PLAYER = "Seat 1 moves first; the others follow in seat order."


def new_state(board: Board, players: int, seed: int, options: dict) -> State:
    walls = [0] * board.num_lines
    for line in board.start_wall:
        walls[line] = OPEN
    s = State(
        n=players,
        rng=GameRandom(seed),
        options=options,
        walls=walls,
        age=[0] * board.num_lines,
        great_wall=list(board.start_wall),
        side=list(board.start_side),
        stacks=[() for _ in board.vids],
        scouts=[-1] * players,
        wall_supply=WALL_PIECES - len(board.start_wall),
        walls_out=0,
        active_walls=[0] * players,
        active_chips=[[0] * 5 for _ in range(players)],
        passive=[list(FACE_COUNTS) for _ in range(players)],
        lost=[[0] * 5 for _ in range(players)],
        hand=[0] * 5,
        seat=0,
        stage="setup_begin",
    )
    advance(s, board)
    return s
