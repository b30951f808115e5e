"""Short human labels for actions (also for redacted ones, whose chip is hidden)."""

from __future__ import annotations

from .board import Board
from .constants import FACE_INDEX, FACE_LABELS
from .state import State


def _chip(name: object) -> str:
    f = FACE_INDEX.get(name) if isinstance(name, str) else None
    return "a chip" if f is None else f"a {FACE_LABELS[f]}"


def describe(s: State, board: Board, a: dict) -> str:
    try:
        t = a["type"]
        if t == "move":
            to = a["to"]
            if "gate" in a:
                return f"scout to {to} through the gate {a['gate']}"
            if "up" in a:
                return f"scout to {to} along the wall (up at {a['up']}, down at {a['down']})"
            return f"scout to {to} by road"
        if t == "lay":
            return f"lay {_chip(a['chip'])}"
        if t == "draw":
            return "take a wall piece" if a["supply"] == "wall" else "draw a chip"
        if t == "use":
            return "use the walls" if a["pieces"] == "walls" else "use the chips"
        if t == "lift":
            return "lift the blocked scout off the board"
        if t == "wall":
            return f"wall piece on {a['line']}"
        if t == "scout":
            return f"scout on {a['village']}"
        if t == "setup":
            return f"starting chip ({_chip(a['chip'])}) in {a['village']}"
    except (KeyError, TypeError):
        pass
    return f"unknown action {a!r}"
