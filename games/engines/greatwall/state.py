"""The full game state, its fast copy and its lossless JSON form.

Chips on the board are small integers (see constants.chip): face, owner and
the set of seats that have seen the face. Supplies of chips are counts per
face (chips of one face are interchangeable); the passive supply is drawn
from at random with the state's generator, so it holds no hidden order.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from games.engines.rng import GameRandom
from games.engines.state_fields import fields_from_json, fields_to_json

from .constants import chip, chip_face, chip_known, chip_owner

# Stages that wait for a decision of the seat on turn.
DECISION_STAGES = frozenset(
    {
        "setup_chip",  # lay one of the two starting chips
        "setup_scout",  # put the scout on one of them
        "draw",  # refill: take a wall or a chip
        "use",  # use the walls, use the chips, or lift a blocked scout
        "wall",  # place one wall piece
        "scout",  # put a lifted scout back on the board
        "move",  # one step of the scout
        "lay",  # lay a chip where the scout stands
    }
)


@dataclass(slots=True, eq=False)
class State:
    n: int
    rng: GameRandom
    options: dict
    walls: list[int]  # per line: NO_WALL, OPEN or CLOSED
    age: list[int]  # per line: when its piece was placed (0 = starting wall)
    great_wall: list[int]  # its lines, in order from one rim tower to the other
    side: list[int]  # per village: MONGOLIA or CHINA
    stacks: list[tuple[int, ...]]  # per village: chips bottom -> top (tuples: copied by reference)
    scouts: list[int]  # per seat: village, or -1 when lifted off the board
    wall_supply: int  # the common supply of wall pieces
    walls_out: int  # pieces removed from the board in the final round (out of the game)
    active_walls: list[int]  # [seat]
    active_chips: list[list[int]]  # [seat][face]
    passive: list[list[int]]  # [seat][face], face down, drawn at random
    lost: list[list[int]]  # [seat][face]: chips that left the game (blocked scout)
    hand: list[int]  # [face]: starting chips drawn but not yet laid (setup)
    seat: int  # whose turn it is
    stage: str
    draws: int = 0  # refill draws still to make
    visited: int = 0  # bitmask of villages the scout stood on this turn (start included)
    setup_first: int = -1  # village of the first starting chip of the seat in setup
    placed: int = 0  # wall pieces placed so far (ages)
    announced: int = -1  # the seat that announced the end
    final: bool = False  # the final round is being played
    over: bool = False
    turn: int = 0  # turns started (setup excluded)
    round: int = 0  # full rounds completed
    ply: int = 0

    def copy(self) -> State:
        return State(
            n=self.n,
            rng=self.rng.copy(),
            options=self.options,  # never mutated after new_game
            walls=self.walls[:],
            age=self.age[:],
            great_wall=self.great_wall[:],
            side=self.side[:],
            stacks=self.stacks[:],
            scouts=self.scouts[:],
            wall_supply=self.wall_supply,
            walls_out=self.walls_out,
            active_walls=self.active_walls[:],
            active_chips=[a[:] for a in self.active_chips],
            passive=[p[:] for p in self.passive],
            lost=[x[:] for x in self.lost],
            hand=self.hand[:],
            seat=self.seat,
            stage=self.stage,
            draws=self.draws,
            visited=self.visited,
            setup_first=self.setup_first,
            placed=self.placed,
            announced=self.announced,
            final=self.final,
            over=self.over,
            turn=self.turn,
            round=self.round,
            ply=self.ply,
        )

    def controller(self, village: int) -> int:
        """The seat whose chip lies on top, or -1 for an empty village."""
        stack = self.stacks[village]
        return chip_owner(stack[-1]) if stack else -1


_SCALARS = (
    "n",
    "wall_supply",
    "walls_out",
    "seat",
    "stage",
    "draws",
    "visited",
    "setup_first",
    "placed",
    "announced",
    "final",
    "over",
    "turn",
    "round",
    "ply",
)
_FLAT_LISTS = ("walls", "age", "great_wall", "side", "scouts", "active_walls", "hand")
_NESTED_LISTS = ("active_chips", "passive", "lost")


def to_json(s: State) -> dict:
    out = fields_to_json(s, _SCALARS, _FLAT_LISTS, _NESTED_LISTS)
    out["stacks"] = [[[chip_owner(c), chip_face(c), chip_known(c)] for c in st] for st in s.stacks]
    out["options"] = copy.deepcopy(s.options)
    out["rng"] = list(s.rng.getstate())
    return out


def from_json(data: dict) -> State:
    # Keys not listed are ignored: states stored before the end was read as "two
    # supplies empty at the same time" carry a "walls_ran_out" flag (the wall
    # supply counted as exhausted from its first emptying); it means nothing now.
    kwargs = fields_from_json(data, _SCALARS, _FLAT_LISTS, _NESTED_LISTS)
    rng = GameRandom()
    rng.setstate(data["rng"])
    return State(
        rng=rng,
        options=copy.deepcopy(data["options"]),
        stacks=[tuple(chip(f, o, k) for o, f, k in st) for st in data["stacks"]],
        **kwargs,
    )
