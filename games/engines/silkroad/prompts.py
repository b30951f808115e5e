"""What the pending decision is, in one sentence for the player who makes it (the match
page's prompt), per stage; all through the engines' `_()`, whole sentences."""

from __future__ import annotations

from games.engines.i18n import _

from . import labels as L
from .board import default_board
from .constants import GOODS
from .market import good_on_sale
from .state import State


def prompt(s: State, seat: int | None = None) -> str:
    """The decision `seat` (the actor) is asked for now; "" when the game is over."""
    if s.over:
        return ""
    stage = s.stage
    if stage == "play":
        return _("Choose a caravan to move: first a good from your hand, then the caravan.")
    if stage == "route":
        return _("Choose where the caravan stops.")
    if stage == "draw":
        return _("Choose a card to draw: from the display or the top of the deck.")
    if stage == "sell" and s.market is not None:
        place = L.space_name(default_board(), s.market.place)
        good = L.good_name(GOODS[good_on_sale(s)])
        return _("Sell {good} at {place}, or decline.").format(good=good, place=place)
    if stage == "gem":
        return _("Choose a gem to take.")
    if stage == "customs":
        return _("Customs: choose a card from your hand to discard.")
    if stage == "sandstorm":
        return _("Sandstorm: choose one of your laid-out cards to discard.")
    if stage == "rob":
        if seat is not None and seat != s.seat:
            return _("You were robbed: choose a laid-out card to take from another player.")
        return _("Robbers: choose a laid-out card to take from another player.")
    if stage == "bazaar":
        return _("Bazaar: choose three different laid-out goods to give for a gem, or pass.")
    if stage == "baksheesh":
        return _("Baksheesh: choose a card from the display to lay out.")
    if stage == "baksheesh_discard":
        return _("Baksheesh: choose a card from your hand to discard.")
    if stage == "layout" and s.layout:
        good = L.good_name(GOODS[s.layout[0][1]])
        return _("Final market: choose how many {good} cards to lay out.").format(good=good)
    return _("Choose your move.")
