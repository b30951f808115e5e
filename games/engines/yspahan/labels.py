"""Human words for the Yspahan board and actions (all through the engines' `_()`),
and the board ids (``data-target``) shared by the picture and ``action_targets``."""

from __future__ import annotations

from functools import cache

from games.engines.board_ids import board_id
from games.engines.i18n import _, ngettext

from .board import BOARD
from .constants import ROWS


def district_name(district: str) -> str:
    return {
        "bag": _("Bag district"),
        "barrel": _("Barrel district"),
        "chest": _("Chest district"),
        "vase": _("Vase district"),
    }.get(district, district)


def souk_name(souk_id: str) -> str:
    """'bag-A' -> 'Bag souk A'."""
    district, _sep, letter = souk_id.partition("-")
    word = {"bag": _("Bag"), "barrel": _("Barrel"), "chest": _("Chest"), "vase": _("Vase")}
    return _("{district} souk {letter}").format(
        district=word.get(district, district), letter=letter
    )


def shop_souk(shop_id: str) -> str:
    return shop_id.rsplit("-", 1)[0]


def row_name(row: str) -> str:
    return {
        "camels": _("camel row"),
        "gold": _("gold row"),
        "bag": _("bag row"),
        "barrel": _("barrel row"),
        "chest": _("chest row"),
        "vase": _("vase row"),
    }.get(row, row)


def row_action(row: str) -> str:
    """What a tower row gives (shown beside the row)."""
    if row == "camels":
        return _("take camels")
    if row == "gold":
        return _("take gold")
    return _("cubes to the {district}").format(district=district_name(row))


CARD_LABELS = {
    "3_camels": "take 3 camels",
    "3_gold": "take 3 gold",
    "place_caravan": "a cube to the caravan",
    "place_board": "a cube to a souk",
    "swap_camels_gold": "exchange gold and camels",
    "score_gold": "gold for points",
    "score_camels": "camels for points",
    "no_camels": "build without camels",
    "no_gold": "build without gold",
}
BUILDING_LABELS = {
    "extra_camel": "+1 camel",
    "extra_gold": "+2 gold",
    "extra_movement": "supervisor 1-3 further",
    "extra_card": "a card per caravan cube",
    "extra_points": "+2 per complete souk",
    "extra_cube": "+1 cube",
}


def card_name(card: str) -> str:
    return _(CARD_LABELS.get(card, card))


def building_name(building: str) -> str:
    from .constants import BUILDING_INDEX

    k = BUILDING_INDEX.get(building)
    number = "?" if k is None else k + 1
    return _("building {n} ({what})").format(n=number, what=_(BUILDING_LABELS.get(building, "?")))


@cache
def _squares() -> dict[str, tuple[str, int]]:
    """Each street cell as (arm, distance from the centre): the cross's four arms
    are named by the compass from the centre cell (screen y grows southwards)."""
    centre = BOARD.centre
    cx, cy = BOARD.cell_xy[centre]
    out: dict[str, tuple[str, int]] = {BOARD.cell_ids[centre]: ("centre", 0)}
    for c in range(len(BOARD.cell_ids)):
        if c == centre:
            continue
        # the arm is the one of the centre's neighbours on the way to c
        first = min(
            (n for n in range(len(BOARD.cell_ids)) if BOARD.dist[centre][n] == 1),
            key=lambda n: BOARD.dist[n][c],
        )
        x, y = BOARD.cell_xy[first]
        dx, dy = x - cx, y - cy
        if abs(dx) > abs(dy):
            arm = "east" if dx > 0 else "west"
        else:
            arm = "south" if dy > 0 else "north"
        out[BOARD.cell_ids[c]] = (arm, BOARD.dist[centre][c])
    return out


def square_of(cell_id: str) -> tuple[str, int]:
    return _squares()[cell_id]


def street_name(arm: str) -> str:
    return {
        "north": _("North street"),
        "south": _("South street"),
        "east": _("East street"),
        "west": _("West street"),
        "centre": _("the centre"),
    }[arm]


def square_name(cell_id: str) -> str:
    arm, k = square_of(cell_id)
    if arm == "centre":
        return street_name(arm)
    return _("{street} {n}").format(street=street_name(arm), n=k)


# ---- data-target ids (stable, never shown as text) -----------------------
def square_target(cell_id: str) -> str:
    arm, k = square_of(cell_id)
    return "square:centre" if arm == "centre" else f"square:{arm}-{k}"


shop_target = board_id("shop")
row_target = board_id("row")
hand_target = board_id("hand")
building_target = board_id("building")
SUPERVISOR_TARGET = "supervisor"
DECK_TARGET = "deck"
CARAVAN_TARGET = "caravan"


# ---- playing on the board ---------------------------------------------------
def action_targets(s, a: dict) -> list[str]:
    t = a.get("type")
    try:
        if t == "row":
            return [row_target(a["row"])]
        if t == "draw_card":
            return [DECK_TARGET]
        if t == "action":
            kind = a["kind"]
            if kind == "supervisor":
                return [SUPERVISOR_TARGET]
            if kind == "card":
                return [DECK_TARGET]
            if kind == "row" and s.row >= 0:
                return [row_target(ROWS[s.row])]
            return []
        if t in ("boost", "play"):
            return [hand_target(a["card"])]
        if t == "place":
            return [shop_target(a["shop"])]
        if t == "move":
            return [square_target(a["to"])]
        if t == "send":
            return [CARAVAN_TARGET]
        if t == "build":
            return [building_target(a["building"])]
    except (KeyError, TypeError):
        pass
    return []


def action_choice(s, a: dict, describe) -> str | None:
    t = a.get("type")
    if t == "boost":
        return _("discard for +1")
    if t == "play":
        return _("play it")
    if t == "build":
        cards = a.get("cards") or []
        if not cards:
            return None
        return _("using {cards}").format(cards=_(" and ").join(card_name(c) for c in cards))
    if action_targets(s, a):
        return None
    if t == "yellow":
        k = a.get("count", 0)
        if not k:
            return _("no yellow dice")
        n = k if isinstance(k, int) else 0
        return ngettext("buy {n} yellow die", "buy {n} yellow dice", n).format(n=k)
    if t == "pass":
        return _("build nothing")
    if t == "end":
        return _("end the turn")
    return describe(s, a)
