"""Short human labels for actions."""

from __future__ import annotations

from .board import Board
from .constants import ACTION_LABELS, GOODS
from .market import good_on_sale
from .state import State


def _play(s: State, board: Board, a: dict) -> str:
    n, good, size = a["count"], a["good"], a["caravan"]
    text = f"play {n} {good}, move the {size}-camel caravan"
    caravan = s.caravans[size] if size in (1, 2, 3) else None
    if caravan is None or s.stage != "play":
        return text
    ends = (
        board.ends(caravan.pos, caravan.target, s.occupied(size), n) if isinstance(n, int) else []
    )
    if len(ends) == 1:
        dest = ends[0]
        what = "great market" if dest == caravan.target else ACTION_LABELS[s.tiles[dest]]
        text += f" to {board.names[dest]} ({what})"
    return text


def describe(s: State, board: Board, a: dict) -> str:
    try:
        t = a["type"]
        if t == "play":
            return _play(s, board, a)
        if t == "route":
            space = board.index.get(a["to"], -1)
            return f"take the route that ends in {board.names[space] if space >= 0 else a['to']}"
        if t == "draw":
            if a["source"] == "deck":
                return "draw the top card of the deck"
            return f"take {a['good']} from the display"
        if t == "sell":
            if s.stage == "sell":
                return f"sell {GOODS[good_on_sale(s)]}"
            return "sell"
        if t == "decline":
            if s.stage == "sell":
                return f"decline to sell {GOODS[good_on_sale(s)]}"
            return "decline to sell"
        if t == "gem":
            return f"take a {a['color']} gem"
        if t == "discard":
            if a["from"] == "field":
                return f"discard a laid-out {a['good']}"
            return f"discard {a['good']} from hand"
        if t == "rob":
            return f"take a laid-out {a['good']} from seat {a['victim']}"
        if t == "bazaar":
            return "give " + ", ".join(a["goods"]) + " at the bazaar for a colourless gem"
        if t == "pass":
            return "pass"
        if t == "baksheesh":
            return f"lay out {a['good']} from the display (baksheesh)"
        if t == "layout":
            return f"lay out {a['count']} {a['good']}" if a["count"] else f"lay out no {a['good']}"
    except (KeyError, TypeError, IndexError):
        pass
    return f"unknown action {a!r}"
