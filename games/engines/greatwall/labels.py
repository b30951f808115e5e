"""Human words for the Great Wall board and actions (all through the engines' `_()`),
and the board ids (``data-target``) shared by the picture and ``action_targets``.

Villages keep their grid ids (``b3``) inside the engine; players read a human
name for each square: Mongolian towns in the north (rows 1-3), Chinese towns
in the south (rows 4-6). The names stay with the square when it changes side.
"""

from __future__ import annotations

from games.engines.board_ids import board_id
from games.engines.i18n import _
from games.engines.words import colour_name

VILLAGE_NAMES = {
    "b1": "Khovd",
    "c1": "Ulaangom",
    "d1": "Darkhan",
    "e1": "Erdenet",
    "f1": "Kherlen",
    "a2": "Altai",
    "b2": "Bayankhon",
    "c2": "Choir",
    "d2": "Dalan",
    "e2": "Khentii",
    "f2": "Murun",
    "g2": "Baruun",
    "a3": "Zamyn",
    "b3": "Olgii",
    "c3": "Arvai",
    "d3": "Mandal",
    "e3": "Dornod",
    "f3": "Bulgan",
    "g3": "Gobi",
    "a4": "Datong",
    "b4": "Yulin",
    "c4": "Baotou",
    "d4": "Hohhot",
    "e4": "Chengde",
    "f4": "Jining",
    "g4": "Tangshan",
    "a5": "Wuwei",
    "b5": "Yinchuan",
    "c5": "Taiyuan",
    "d5": "Baoding",
    "e5": "Handan",
    "f5": "Tianjin",
    "g5": "Jinan",
    "b6": "Xi'an",
    "c6": "Luoyang",
    "d6": "Kaifeng",
    "e6": "Anyang",
    "f6": "Qingdao",
}
SEAT_NAMES = ("red", "green", "blue", "yellow")
FACE_NAMES = {
    "chinese": "Chinese warrior",
    "mongol": "Mongol rider",
    "peasant": "peasant",
    "plague": "plague",
    "herb": "healing herb",
}
FACE_MARKS = {"chinese": "C", "mongol": "M", "peasant": "P", "plague": "X", "herb": "H"}


def village_name(vid: str) -> str:
    return _(VILLAGE_NAMES.get(vid, vid))


def line_name(lid: str) -> str:
    """A wall line 'c3/d3' as 'Arvai-Mandal' (the two villages it separates)."""
    a, _sep, b = lid.partition("/")
    return _("{a}-{b}").format(a=village_name(a), b=village_name(b))


def seat_name(seat: int) -> str:
    return colour_name(SEAT_NAMES[seat % 4])


def face_name(face: str) -> str:
    return _(FACE_NAMES.get(face, face))


def face_mark(face: str) -> str:
    return _(FACE_MARKS.get(face, "?"))


def side_name(side: str) -> str:
    return {"mongol": _("Mongolia"), "chinese": _("China")}.get(side, side)


def stage_name(stage: str) -> str:
    return {
        "setup_chip": _("lay a starting chip"),
        "setup_scout": _("place the scout"),
        "draw": _("take two pieces"),
        "use": _("use walls or chips"),
        "wall": _("place a wall"),
        "scout": _("put the scout back"),
        "move": _("move the scout"),
        "lay": _("lay a chip"),
    }.get(stage, stage)


# ---- data-target ids (stable, never shown as text) -----------------------
village_target = board_id("village")
wall_target = board_id("wall")
chip_target = board_id("chip")
supply_target = board_id("supply")
active_target = board_id("active")
scout_target = board_id("scout")


# ---- playing on the board ---------------------------------------------------
def action_targets(s, a: dict) -> list[str]:
    t = a.get("type")
    try:
        if t == "move":
            out = [village_target(a["to"])]
            if "gate" in a:
                out.append(wall_target(a["gate"]))
            elif "up" in a:
                out += [wall_target(a["up"]), wall_target(a["down"])]
            return out
        if t == "setup":
            return [chip_target(a["chip"]), village_target(a["village"])]
        if t == "scout":
            return [village_target(a["village"])]
        if t == "lay":
            return [chip_target(a["chip"])]
        if t == "draw":
            return [supply_target(a["supply"])]
        if t == "use":
            return [active_target(a["pieces"])]
        if t == "wall":
            return [wall_target(a["line"])]
        if t == "lift":
            return [scout_target(s.seat)]
    except (KeyError, TypeError):
        pass
    return []


def action_choice(s, a: dict, describe) -> str | None:
    t = a.get("type")
    if t == "move":
        if "gate" in a:
            return _("through the gate")
        if "up" in a:
            return None
        return _("by road")
    if action_targets(s, a):
        return None
    return describe(s, a)
