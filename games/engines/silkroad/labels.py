"""Human words for the Silk Road board and actions, all through the engines' `_()`.

Board ids (``data-target``) are built here too, so the picture and
``action_targets`` can never disagree.
"""

from __future__ import annotations

from games.engines.board_ids import board_id
from games.engines.i18n import _, ngettext, pgettext
from games.engines.words import colour_name as colour_name  # re-exported: L.colour_name

from .board import Board
from .constants import GOODS


def good_name(good: str) -> str:
    return {
        "silk": _("silk"),
        "porcelain": _("porcelain"),
        "spice": _("spice"),
        "ivory": _("ivory"),
        "tea": _("tea"),
    }.get(good, good)


def action_label(kind: str) -> str:
    """The long name of a village's action tile."""
    for good in GOODS:
        if kind == f"small_market_{good}":
            return _("small market ({good})").format(good=good_name(good))
    return {
        "black_market": _("black market"),
        "camels_1": _("1 camel"),
        "camels_2": _("2 camels"),
        "camels_3": _("3 camels"),
        "customs": _("customs"),
        "sandstorm": _("sandstorm"),
        "robbers": _("robbers"),
        "bazaar": _("bazaar"),
        "baksheesh": _("baksheesh"),
    }.get(kind, kind)


def action_mark(kind: str) -> str:
    """The two-letter mark drawn on a village (explained in the board's key)."""
    if kind.startswith("small_market_"):
        return pgettext("market", "M")
    return {
        "black_market": _("BM"),
        "camels_1": "1",
        "camels_2": "2",
        "camels_3": "3",
        "customs": _("Cu"),
        "sandstorm": _("Sa"),
        "robbers": _("Ro"),
        "bazaar": _("Bz"),
        "baksheesh": _("Bk"),
    }.get(kind, "?")


def space_name(board: Board, space: int) -> str:
    return _(board.names[space])


# ---- data-target ids (stable, never shown as text) -----------------------
def space_target(board: Board, space: int) -> str:
    kind = "city" if board.is_city(space) else "village"
    return f"{kind}:{board.ids[space]}"


caravan_target = board_id("caravan")
hand_target = board_id("hand")
display_target = board_id("display")
field_target = board_id("field")
gem_target = board_id("gem")
DECK_TARGET = "deck"


# ---- playing on the board ---------------------------------------------------
def action_targets(s, board: Board, a: dict) -> list[str]:
    """The ids a player clicks for an action, in order (README "Board ids")."""
    t = a.get("type")
    try:
        if t == "play":
            out = [hand_target(a["good"]), caravan_target(a["caravan"])]
            caravan = s.caravans[a["caravan"]]
            if caravan is not None and s.stage == "play":
                ends = board.ends(caravan.pos, caravan.target, s.occupied(a["caravan"]), a["count"])
                if len(ends) == 1:
                    out.append(space_target(board, ends[0]))
            return out
        if t == "route":
            return [space_target(board, board.index[a["to"]])]
        if t == "draw":
            return [DECK_TARGET] if a["source"] == "deck" else [display_target(a["good"])]
        if t == "baksheesh":
            return [display_target(a["good"])]
        if t == "discard":
            if a["from"] == "field":
                return [field_target(s.actor, a["good"])]
            return [hand_target(a["good"])]
        if t == "rob":
            return [field_target(a["victim"], a["good"])]
        if t == "gem":
            return [gem_target(board.ids[s.market.place], a["color"])]
    except (KeyError, TypeError, AttributeError, IndexError):
        pass
    return []


def action_choice(s, board: Board, a: dict, describe) -> str | None:
    """The non-board part of an action, as a short button label."""
    t = a.get("type")
    if t == "play":
        n = a.get("count")
        return ngettext("{n} card", "{n} cards", n if isinstance(n, int) else 0).format(n=n)
    if action_targets(s, board, a):
        return None
    if t == "sell":
        return _("sell")
    if t == "decline":
        return _("decline")
    if t == "pass":
        return _("pass")
    if t == "layout":
        n = a.get("count")
        return _("lay out none") if not n else _("lay out {n}").format(n=n)
    return describe(s, board, a)
