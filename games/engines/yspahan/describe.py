"""Short human labels for actions, from the state before the action (every word
through the engines' `_()`; names from labels.py)."""

from __future__ import annotations

from games.engines.i18n import _, ngettext

from . import labels as L
from .board import BOARD
from .constants import ROW_INDEX
from .flow import row_value
from .rules import move_cost
from .state import State

# kept for callers that imported them from here
CARD_LABELS = L.CARD_LABELS
BUILDING_LABELS = L.BUILDING_LABELS


def describe(s: State, a: dict) -> str:
    kind = a.get("type")
    p = s.actor
    if kind == "yellow":
        k = a.get("count", 0)
        if not k:
            return _("Roll without yellow dice")
        # ngettext needs a number; a malformed action still gets a label.
        n = k if isinstance(k, int) else 0
        return ngettext("Buy {n} yellow die and roll", "Buy {n} yellow dice and roll", n).format(
            n=k
        )
    if kind == "row":
        r = a.get("row")
        name = L.row_name(r) if isinstance(r, str) else "?"
        try:
            v = row_value(s, p, ROW_INDEX[r])
            pips = s.rows[ROW_INDEX[r]][0]
        except (KeyError, TypeError):
            return _("Take the {row}").format(row=name)
        text = ngettext(
            "Take the {row} ({n} die showing {pips})", "Take the {row} ({n} dice showing {pips})", v
        )
        return text.format(row=name, n=v, pips=pips)
    if kind == "draw_card":
        return _("No row left: draw a card")
    if kind == "action":
        what = a.get("kind")
        return {
            "supervisor": _("Move the supervisor"),
            "row": _("Use the row's action"),
            "card": _("Draw a card"),
        }.get(what, _("Unknown action"))
    if kind == "boost":
        return _("Discard “{card}” for +1").format(card=L.card_name(a.get("card")))
    if kind == "go":
        return _("Carry out the row's action")
    if kind == "place":
        shop = a.get("shop")
        if shop not in BOARD.shop_index:
            return _("Place a cube")
        return _("Place a cube in {souk}").format(souk=L.souk_name(L.shop_souk(shop)))
    if kind == "move":
        to = a.get("to")
        if to not in BOARD.cell_index:
            return _("Move the supervisor")
        cost = move_cost(s, p, BOARD.cell_index[to]) if s.row >= 0 else 0
        text = _("Move the supervisor to {square}").format(square=L.square_name(to))
        if cost:
            text += " " + _("(pay {n} gold)").format(n=cost)
        return text
    if kind == "first":
        return _("Seat {seat} sends to the caravan first").format(seat=a.get("seat", 0) + 1)
    if kind == "send":
        if s.events:
            souk = L.souk_name(L.shop_souk(BOARD.shop_ids[s.events[0][0]]))
            return _("Send the cube from {souk} to the caravan").format(souk=souk)
        return _("Send the cube to the caravan")
    if kind == "pay":
        return _("Pay 1 camel: keep the shop's cube, send one from supply")
    if kind == "build":
        label = _("Build {building}").format(building=L.building_name(a.get("building")))
        used = a.get("cards") or []
        if used:
            label += " " + _("with {cards}").format(
                cards=_(" and ").join(f"“{L.card_name(c)}”" for c in used)
            )
        return label
    if kind == "pass":
        return _("Build nothing, end the turn")
    if kind == "end":
        return _("End the turn")
    if kind == "play":
        return _("Play card: {card}").format(card=L.card_name(a.get("card")))
    if kind == "swap":
        k = a.get("count")
        n = k if isinstance(k, int) else 0
        if a.get("give") == "gold":
            text = ngettext(
                "Exchange {n} gold for {n} camel", "Exchange {n} gold for {n} camels", n
            )
        else:
            text = ngettext(
                "Exchange {n} camel for {n} gold", "Exchange {n} camels for {n} gold", n
            )
        return text.format(n=k)
    if kind == "score":
        k = a.get("count")
        n = k if isinstance(k, int) else 0
        if s.stage == "card_score_camels":
            pts = 2 * k if isinstance(k, int) else "?"
            text = ngettext(
                "Turn {n} camel into {pts} points", "Turn {n} camels into {pts} points", n
            )
            return text.format(n=k, pts=pts)
        return ngettext("Turn {n} gold into {n} point", "Turn {n} gold into {n} points", n).format(
            n=k
        )
    return _("Unknown action")
