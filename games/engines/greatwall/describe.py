"""Short human labels for actions (also for redacted ones, whose chip is hidden);
every word through the engines' `_()`, names from labels.py."""

from __future__ import annotations

from games.engines.i18n import _

from . import labels as L
from .board import Board
from .constants import FACES
from .state import State


def _chip(name: object) -> str:
    if isinstance(name, str) and name in FACES:
        return _("a {face}").format(face=L.face_name(name))
    return _("a chip")


def describe(s: State, board: Board, a: dict) -> str:
    try:
        t = a["type"]
        if t == "move":
            to = L.village_name(a["to"])
            if "gate" in a:
                return _("scout to {to} through the gate {gate}").format(
                    to=to, gate=L.line_name(a["gate"])
                )
            if "up" in a:
                return _("scout to {to} along the wall (up at {up}, down at {down})").format(
                    to=to, up=L.line_name(a["up"]), down=L.line_name(a["down"])
                )
            return _("scout to {to} by road").format(to=to)
        if t == "lay":
            return _("lay {chip}").format(chip=_chip(a["chip"]))
        if t == "draw":
            return _("take a wall piece") if a["supply"] == "wall" else _("draw a chip")
        if t == "use":
            return _("use the walls") if a["pieces"] == "walls" else _("use the chips")
        if t == "lift":
            return _("lift the blocked scout off the board")
        if t == "wall":
            return _("wall piece on {line}").format(line=L.line_name(a["line"]))
        if t == "scout":
            return _("scout on {village}").format(village=L.village_name(a["village"]))
        if t == "setup":
            return _("starting chip ({chip}) in {village}").format(
                chip=_chip(a["chip"]), village=L.village_name(a["village"])
            )
    except (KeyError, TypeError):
        pass
    return _("unknown action {action}").format(action=repr(a))
