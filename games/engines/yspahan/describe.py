"""Short human labels for actions, from the state before the action."""

from __future__ import annotations

from .board import BOARD
from .constants import ROW_INDEX
from .flow import row_value
from .rules import move_cost
from .state import State

BUILDING_LABELS = {
    "extra_camel": "building 1 (+1 camel)",
    "extra_gold": "building 2 (+2 gold)",
    "extra_movement": "building 3 (move the supervisor 1-3 more or less)",
    "extra_card": "building 4 (a card per cube to the caravan)",
    "extra_points": "building 5 (+2 a complete souk)",
    "extra_cube": "building 6 (+1 cube)",
}
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


def describe(s: State, a: dict) -> str:
    kind = a.get("type")
    p = s.actor
    if kind == "yellow":
        k = a.get("count", 0)
        return "Roll without yellow dice" if not k else f"Buy {k} yellow dice and roll"
    if kind == "row":
        r = a.get("row")
        try:
            v = row_value(s, p, ROW_INDEX[r])
            pips = s.rows[ROW_INDEX[r]][0]
        except (KeyError, TypeError):
            return f"Take the {r} row"
        return f"Take the {r} row ({v} dice showing {pips})"
    if kind == "draw_card":
        return "No row left: draw a card"
    if kind == "action":
        what = a.get("kind")
        return {
            "supervisor": "Move the supervisor",
            "row": "Use the row's action",
            "card": "Draw a card",
        }.get(what, f"Action {what}")
    if kind == "boost":
        return f"Discard {a.get('card')} for +1"
    if kind == "go":
        return "Carry out the row's action"
    if kind == "place":
        shop = a.get("shop", "?")
        souk = shop.rsplit("-", 1)[0] if isinstance(shop, str) else "?"
        return f"Place a cube in {souk} ({shop})"
    if kind == "move":
        to = a.get("to")
        cost = 0
        if to in BOARD.cell_index and s.row >= 0:
            cost = move_cost(s, p, BOARD.cell_index[to])
        return f"Move the supervisor to {to}" + (f" (pay {cost} gold)" if cost else "")
    if kind == "first":
        return f"Seat {a.get('seat')} sends to the caravan first"
    if kind == "send":
        shop = BOARD.shop_ids[s.events[0][0]] if s.events else "the shop"
        return f"Send the cube from {shop} to the caravan"
    if kind == "pay":
        return "Pay 1 camel: keep the shop's cube, send one from supply"
    if kind == "build":
        b = a.get("building")
        label = f"Build {BUILDING_LABELS.get(b, b)}"
        used = a.get("cards") or []
        if used:
            label += " with " + " and ".join(str(c) for c in used)
        return label
    if kind == "pass":
        return "Build nothing, end the turn"
    if kind == "end":
        return "End the turn"
    if kind == "play":
        c = a.get("card")
        return f"Play card: {CARD_LABELS.get(c, c)}"
    if kind == "swap":
        k = a.get("count")
        if a.get("give") == "gold":
            return f"Exchange {k} gold for {k} camels"
        return f"Exchange {k} camels for {k} gold"
    if kind == "score":
        k = a.get("count")
        if s.stage == "card_score_camels":
            return f"Turn {k} camels into {2 * k if isinstance(k, int) else '?'} points"
        return f"Turn {k} gold into {k} points"
    return f"{a!r}"
