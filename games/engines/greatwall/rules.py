"""The decision vocabulary: every legal decision, and validating + applying one.

Actions (JSON dicts; villages and wall lines by id, chip faces by name):
  setup_chip   {"type": "setup", "village": v, "chip": face}   lay a starting chip
  setup_scout  {"type": "scout", "village": v}                 put the scout on one of them
  draw         {"type": "draw", "supply": "wall" | "chip"}     refill, one piece at a time
  use          {"type": "use", "pieces": "walls" | "chips"}    | {"type": "lift"}
  wall         {"type": "wall", "line": line}                  place one wall piece
  scout        {"type": "scout", "village": v}                 put a lifted scout back
  move         {"type": "move", "to": v}                       along a road
               {"type": "move", "to": v, "gate": line}         through an open gate
               {"type": "move", "to": v, "up": line, "down": line}   along the wall
  lay          {"type": "lay", "chip": face}                   lay a chip where the scout stands
"""

from __future__ import annotations

from typing import Any

from games.engines.base import IllegalAction

from . import flow, walls
from .board import Board
from .constants import CLOSED, FACE_INDEX, FACES, KNOWN_SHIFT, chip
from .moves import blocked_mask, is_step, steps
from .state import State

_DRAW = {"wall": {"type": "draw", "supply": "wall"}, "chip": {"type": "draw", "supply": "chip"}}
_USE = {
    "walls": {"type": "use", "pieces": "walls"},
    "chips": {"type": "use", "pieces": "chips"},
    "lift": {"type": "lift"},
}


def legal_actions(s: State, board: Board) -> list[dict]:
    if s.over:
        return []
    stage = s.stage
    seat = s.seat
    if stage == "move":
        vids, lids = board.vids, board.lids
        out = []
        for to, via in steps(s, board, s.scouts[seat], blocked_mask(s, seat)):
            if not via:
                out.append({"type": "move", "to": vids[to]})
            elif len(via) == 1:
                out.append({"type": "move", "to": vids[to], "gate": lids[via[0]]})
            else:
                out.append(
                    {"type": "move", "to": vids[to], "up": lids[via[0]], "down": lids[via[1]]}
                )
        return out
    if stage == "lay":
        return [{"type": "lay", "chip": FACES[f]} for f, k in enumerate(s.active_chips[seat]) if k]
    if stage == "draw":
        out = []
        if flow.can_draw_wall(s, seat):
            out.append(dict(_DRAW["wall"]))
        if flow.can_draw_chip(s, seat):
            out.append(dict(_DRAW["chip"]))
        return out
    if stage == "use":
        return [dict(_USE[k]) for k in flow.use_options(s, board)]
    if stage == "wall":
        return [{"type": "wall", "line": board.lids[x]} for x in walls.placeable(s, board)]
    if stage == "scout":
        return [{"type": "scout", "village": board.vids[v]} for v in flow.return_villages(s, board)]
    if stage == "setup_chip":
        places = (
            flow.setup_first_villages(s, board)
            if s.setup_first < 0
            else flow.setup_second_villages(s, board)
        )
        faces = [FACES[f] for f, k in enumerate(s.hand) if k]
        return [
            {"type": "setup", "village": board.vids[v], "chip": f} for v in places for f in faces
        ]
    if stage == "setup_scout":
        return [
            {"type": "scout", "village": board.vids[v]}
            for v in range(len(s.stacks))
            if s.visited >> v & 1
        ]
    return []


# ---- validation -----------------------------------------------------------
_KEYS = {
    "setup": ("chip", "type", "village"),
    "scout": ("type", "village"),
    "draw": ("supply", "type"),
    "use": ("pieces", "type"),
    "lift": ("type",),
    "wall": ("line", "type"),
    "move": ("to", "type"),  # and "gate", or "up" and "down" (see _MOVE_KEYS)
    "lay": ("chip", "type"),
}
_MOVE_KEYS = {
    2: ("to", "type"),
    3: ("gate", "to", "type"),
    4: ("down", "to", "type", "up"),
}
_VIA_KEYS = {2: (), 3: ("gate",), 4: ("up", "down")}
_STAGES = {
    "setup": ("setup_chip",),
    "scout": ("setup_scout", "scout"),
    "draw": ("draw",),
    "use": ("use",),
    "lift": ("use",),
    "wall": ("wall",),
    "move": ("move",),
    "lay": ("lay",),
}


def _str(a: dict, key: str) -> str:
    value = a[key]
    if type(value) is not str:
        raise IllegalAction(f"{key} must be a string, not {value!r}")
    return value


def _village(board: Board, a: dict, key: str) -> int:
    v = board.vindex.get(_str(a, key))
    if v is None:
        raise IllegalAction(f"no village {a[key]!r}")
    return v


def _face(a: dict) -> int:
    f = FACE_INDEX.get(_str(a, "chip"))
    if f is None:
        raise IllegalAction(f"no chip face {a['chip']!r}; faces: {', '.join(FACES)}")
    return f


def check(s: State, board: Board, a: Any) -> tuple:
    """Validate `a` against the state; return its parsed form or raise IllegalAction."""
    if s.over:
        raise IllegalAction("the game is over")
    if not isinstance(a, dict) or type(a.get("type")) is not str:
        raise IllegalAction("an action is a JSON object with a string 'type'")
    t = a["type"]
    keys = _KEYS.get(t)
    if keys is None:
        raise IllegalAction(f"unknown action type {t!r}")
    if t == "move":
        keys = _MOVE_KEYS.get(len(a), keys)
    if len(a) != len(keys) or any(k not in a for k in keys):
        if t == "move":
            raise IllegalAction(
                "a 'move' action has the keys type and to, plus gate or up and down"
            )
        raise IllegalAction(f"a {t!r} action has exactly the keys {', '.join(keys)}")
    if s.stage not in _STAGES[t]:
        raise IllegalAction(f"a {t!r} action is not expected now (waiting for {s.stage})")
    seat = s.seat
    if t == "move":
        v = _village(board, a, "to")
        names = [_str(a, k) for k in _VIA_KEYS[len(a)]]
        lines = tuple(board.lindex.get(x, -1) for x in names)
        if -1 in lines:
            raise IllegalAction(f"no wall line {names[lines.index(-1)]!r}")
        if not is_step(s, board, s.scouts[seat], blocked_mask(s, seat), v, lines):
            how = "by road" if not names else " / ".join(names)
            raise IllegalAction(f"the scout cannot step to {a['to']} {how}")
        return (t, v, lines)
    if t == "lay":
        f = _face(a)
        if not s.active_chips[seat][f]:
            raise IllegalAction(f"no {a['chip']} chip in the active supply")
        return (t, f)
    if t == "draw":
        what = _str(a, "supply")
        if what == "wall":
            ok = flow.can_draw_wall(s, seat)
        elif what == "chip":
            ok = flow.can_draw_chip(s, seat)
        else:
            raise IllegalAction("supply is 'wall' or 'chip'")
        if not ok:
            raise IllegalAction(
                f"cannot take a {what} now (supply empty or 4 in the active supply)"
            )
        return (t, what)
    if t in ("use", "lift"):
        what = "lift" if t == "lift" else _str(a, "pieces")
        if t == "use" and what not in ("walls", "chips"):
            raise IllegalAction("pieces is 'walls' or 'chips'")
        if what not in flow.use_options(s, board):
            label = "lift the scout (it is not blocked)" if t == "lift" else f"use {what}"
            raise IllegalAction(f"cannot {label} now")
        return ("use", what)
    if t == "wall":
        line = board.lindex.get(_str(a, "line"), -1)
        if line < 0:
            raise IllegalAction(f"no wall line {a['line']!r}")
        if not walls.can_place(s, board, line):
            raise IllegalAction(f"a piece cannot be placed on {a['line']} (taken or not connected)")
        return (t, line)
    if t == "scout":
        v = _village(board, a, "village")
        # a lifted scout comes back; in setup it goes on one of the two starting chips
        ok = v in flow.return_villages(s, board) if s.stage == "scout" else s.visited >> v & 1
        if not ok:
            raise IllegalAction(f"the scout cannot be put on {a['village']}")
        return (t, v)
    # setup
    v = _village(board, a, "village")
    f = _face(a)
    if not s.hand[f]:
        raise IllegalAction(f"no {a['chip']} among the starting chips")
    places = (
        flow.setup_first_villages(s, board)
        if s.setup_first < 0
        else flow.setup_second_villages(s, board)
    )
    if v not in places:
        raise IllegalAction(f"a starting chip cannot be laid in {a['village']}")
    return (t, v, f)


def apply(s: State, board: Board, a: Any) -> State:
    parsed = check(s, board, a)
    execute(s, board, parsed)
    return s


def parse_trusted(s: State, board: Board, a: dict) -> tuple:
    """The parsed form of an action taken from legal_actions (no validation)."""
    t = a["type"]
    if t == "move":
        lindex = board.lindex
        to = board.vindex[a["to"]]
        if "gate" in a:
            return (t, to, (lindex[a["gate"]],))
        if "up" in a:
            return (t, to, (lindex[a["up"]], lindex[a["down"]]))
        return (t, to, ())
    if t == "lay":
        return (t, FACE_INDEX[a["chip"]])
    if t == "draw":
        return (t, a["supply"])
    if t == "use":
        return (t, a["pieces"])
    if t == "lift":
        return ("use", "lift")
    if t == "wall":
        return (t, board.lindex[a["line"]])
    if t == "scout":
        return (t, board.vindex[a["village"]])
    return (t, board.vindex[a["village"]], FACE_INDEX[a["chip"]])


def execute(s: State, board: Board, parsed: tuple) -> None:
    """Carry out a validated action and run the automatic steps after it."""
    t = parsed[0]
    seat = s.seat
    if t == "move":
        _, v, via = parsed
        for line in via:
            s.walls[line] = CLOSED
        s.scouts[seat] = v
        s.visited |= 1 << v
        s.stage = "lay"
    elif t == "lay":
        f = parsed[1]
        v = s.scouts[seat]
        s.active_chips[seat][f] -= 1
        _lay(s, v, f, seat)
        s.stage = "move" if any(s.active_chips[seat]) else "end_turn"
    elif t == "draw":
        s.draws -= 1
        if parsed[1] == "wall":
            s.wall_supply -= 1
            s.active_walls[seat] += 1
        else:
            s.active_chips[seat][flow.draw_chip(s, seat)] += 1
        flow.note_draw(s)
    elif t == "use":
        what = parsed[1]
        if what == "walls":
            s.stage = "wall"
        elif what == "chips":
            v = s.scouts[seat]
            if v < 0:
                s.stage = "scout"
            else:
                s.visited = 1 << v
                s.stage = "move"
        else:
            s.scouts[seat] = -1
            s.stage = "end_turn"
    elif t == "wall":
        s.active_walls[seat] -= 1
        walls.place(s, board, parsed[1])
        s.stage = "wall" if s.active_walls[seat] else "end_turn"
    elif t == "scout":
        v = parsed[1]
        s.scouts[seat] = v
        if s.stage == "scout":
            s.visited = 1 << v
            s.stage = "move"
        else:  # setup: the next player sets up, or the game starts
            s.visited = 0
            s.setup_first = -1
            if seat + 1 < s.n:
                s.seat = seat + 1
                s.stage = "setup_begin"
            else:
                s.stage = "setup_done"
    else:  # setup chip
        _, v, f = parsed
        s.hand[f] -= 1
        _lay(s, v, f, seat)
        s.visited |= 1 << v
        if s.setup_first < 0:
            s.setup_first = v
        else:
            s.stage = "setup_scout"
    s.ply += 1
    flow.advance(s, board)


def _lay(s: State, v: int, face: int, seat: int) -> None:
    """Put a chip on top of a stack; its layer now controls the village and sees the stack."""
    bit = (1 << seat) << KNOWN_SHIFT
    s.stacks[v] = (*(c | bit for c in s.stacks[v]), chip(face, seat, 0) | bit)
