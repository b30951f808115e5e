"""Short human labels for actions (every word through the engines' `_()`)."""

from __future__ import annotations

from games.engines.i18n import _

from . import labels as L
from .board import Board
from .constants import GOODS
from .market import good_on_sale
from .state import State


def _play(s: State, board: Board, a: dict) -> str:
    n, good, size = a["count"], a["good"], a["caravan"]
    text = _("play {n} {good}, move the {size}-camel caravan").format(
        n=n, good=L.good_name(good), size=size
    )
    caravan = s.caravans[size] if size in (1, 2, 3) else None
    if caravan is None or s.stage != "play":
        return text
    ends = (
        board.ends(caravan.pos, caravan.target, s.occupied(size), n) if isinstance(n, int) else []
    )
    if len(ends) == 1:
        dest = ends[0]
        what = _("great market") if dest == caravan.target else L.action_label(s.tiles[dest])
        text += " " + _("to {place} ({what})").format(place=L.space_name(board, dest), what=what)
    return text


def describe(s: State, board: Board, a: dict) -> str:
    try:
        t = a["type"]
        if t == "play":
            return _play(s, board, a)
        if t == "route":
            space = board.index[a["to"]]
            return _("take the route that ends in {place}").format(place=L.space_name(board, space))
        if t == "draw":
            if a["source"] == "deck":
                return _("draw the top card of the deck")
            return _("take {good} from the display").format(good=L.good_name(a["good"]))
        if t in ("sell", "decline"):
            if s.stage == "sell":
                good = L.good_name(GOODS[good_on_sale(s)])
                text = _("sell {good}") if t == "sell" else _("decline to sell {good}")
                return text.format(good=good)
            return _("sell") if t == "sell" else _("decline to sell")
        if t == "gem":
            return _("take a {colour} gem").format(colour=L.colour_name(a["color"]))
        if t == "discard":
            good = L.good_name(a["good"])
            if a["from"] == "field":
                return _("discard a laid-out {good}").format(good=good)
            return _("discard {good} from hand").format(good=good)
        if t == "rob":
            return _("take a laid-out {good} from seat {seat}").format(
                good=L.good_name(a["good"]), seat=a["victim"] + 1
            )
        if t == "bazaar":
            goods = ", ".join(L.good_name(g) for g in a["goods"])
            return _("give {goods} at the bazaar for a colourless gem").format(goods=goods)
        if t == "pass":
            return _("pass")
        if t == "baksheesh":
            return _("lay out {good} from the display (baksheesh)").format(
                good=L.good_name(a["good"])
            )
        if t == "layout":
            good = L.good_name(a["good"])
            if a["count"]:
                return _("lay out {n} {good}").format(n=a["count"], good=good)
            return _("lay out no {good}").format(good=good)
    except (KeyError, TypeError, IndexError):
        pass
    return _("unknown action {action}").format(action=repr(a))
