"""What one seat (or a spectator) may know, and hidden information resampled for it.

Knowledge (docs/architecture.md, section 7): a chip's face is known to its owner, and a stack's
faces to every player who controls or once controlled that village (they
may look at it; the state keeps, per chip, the set of seats that have seen
it). Chip owners (colours) are public. Hidden from a seat: the faces of
other players' chips it has not seen (on the board, in their active
supplies, among the chips that left the game, their starting chips in
hand), every passive supply's order (there is none: draws are random) and
the generator. At the end the stacks are turned over for scoring, so all
faces on the board are shown then.
"""

from __future__ import annotations

import random

from games.engines.rng import GameRandom

from .board import Board
from .constants import (
    FACE_COUNTS,
    FACES,
    KNOWN_SHIFT,
    SIDES,
    chip,
    chip_face,
    chip_known,
    chip_owner,
)
from .rules import legal_actions
from .scoring import ranks, scores
from .state import State


def knows(s: State, seat: int | None, c: int) -> bool:
    if s.over:
        return True
    if seat is None:
        return False
    return chip_owner(c) == seat or bool(chip_known(c) >> seat & 1)


def _faces(counts: list[int]) -> dict[str, int]:
    return {FACES[f]: k for f, k in enumerate(counts) if k}


def observe(s: State, board: Board, seat: int | None) -> dict:
    vids, lids = board.vids, board.lids
    scout_at = {v: p for p, v in enumerate(s.scouts) if v >= 0}
    villages = []
    for v, stack in enumerate(s.stacks):
        villages.append(
            {
                "id": vids[v],
                "side": SIDES[s.side[v]],
                "stack": [
                    {
                        "owner": chip_owner(c),
                        "chip": FACES[chip_face(c)] if knows(s, seat, c) else None,
                    }
                    for c in stack
                ],
                "controller": chip_owner(stack[-1]) if stack else None,
                "scout": scout_at.get(v),
            }
        )
    players = []
    for p in range(s.n):
        entry = {
            "seat": p,
            "scout": vids[s.scouts[p]] if s.scouts[p] >= 0 else None,
            "walls": s.active_walls[p],
            "chips": sum(s.active_chips[p]),
            "passive": sum(s.passive[p]),
            "lost": sum(s.lost[p]),
            "villages": sum(1 for st in s.stacks if st and chip_owner(st[-1]) == p),
        }
        if p == seat:
            entry["active_chips"] = _faces(s.active_chips[p])
            entry["passive_chips"] = _faces(s.passive[p])  # the owner knows what is left
            entry["lost_chips"] = _faces(s.lost[p])
        players.append(entry)
    turn: dict = {"seat": None if s.over else s.seat, "stage": s.stage}
    if s.stage == "draw":
        turn["draws_left"] = s.draws
    if s.stage in ("setup_chip", "setup_scout"):
        turn["starting_chips"] = sum(s.hand)
        if seat == s.seat:
            turn["starting_faces"] = _faces(s.hand)
        turn["laid"] = [vids[v] for v in range(len(vids)) if s.visited >> v & 1]
    elif s.stage in ("move", "lay"):
        turn["visited"] = [vids[v] for v in range(len(vids)) if s.visited >> v & 1]
    obs = {
        "game": "greatwall",
        "seat": seat,
        "num_players": s.n,
        "turn_number": s.turn,
        "round": s.round,
        "ply": s.ply,
        "turn": turn,
        "walls": {lids[x]: ("open" if w == 1 else "closed") for x, w in enumerate(s.walls) if w},
        "great_wall": [lids[x] for x in s.great_wall],
        "villages": villages,
        "supply": {
            "walls": s.wall_supply,
            "walls_out": s.walls_out,
        },
        "players": players,
        "ending": {
            "announced_by": s.announced if s.announced >= 0 else None,
            "final_round": s.final,
        },
        "over": s.over,
    }
    if s.over:
        pts = scores(s)
        obs["scores"] = pts
        obs["ranks"] = ranks(pts)
    elif seat is not None and seat == s.seat:
        obs["legal"] = legal_actions(s, board)
    return obs


def determinize(s: State, seat: int, rng: random.Random) -> State:
    """A copy of `s` with every face hidden from `seat` dealt anew from `rng`."""
    t = s.copy()
    bit = (1 << seat) << KNOWN_SHIFT
    for o in range(t.n):
        if o == seat:
            continue
        pool = list(FACE_COUNTS)
        slots: list[tuple[int, int]] = []  # (village, position) of unseen chips of o
        for v, stack in enumerate(t.stacks):
            for i, c in enumerate(stack):
                if chip_owner(c) != o:
                    continue
                if t.over or c & bit:
                    pool[chip_face(c)] -= 1
                else:
                    slots.append((v, i))
        faces = [f for f, k in enumerate(pool) for _ in range(k)]
        rng.shuffle(faces)
        for v, i in slots:
            stack = list(t.stacks[v])
            stack[i] = chip(faces.pop(), o, chip_known(stack[i]))
            t.stacks[v] = tuple(stack)
        for counts in _hidden_counts(t, o):
            size = sum(counts)
            for f in range(5):
                counts[f] = 0
            for _ in range(size):
                counts[faces.pop()] += 1
        if faces:
            raise AssertionError("chip counts of a player do not add up")
    t.rng = GameRandom(rng.getrandbits(64))  # reseeded: future draws are not predictable
    return t


def _hidden_counts(t: State, o: int) -> list[list[int]]:
    out = [t.active_chips[o], t.lost[o], t.passive[o]]
    if t.stage in ("setup_chip", "setup_scout") and t.seat == o:
        out.append(t.hand)
    return out
