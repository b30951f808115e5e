"""What the pending decision is, in one sentence for the player who makes it (the match
page's prompt), per stage; all through the engines' `_()`, whole sentences."""

from __future__ import annotations

from games.engines.i18n import _, ngettext

from . import flow
from .state import State

_FIXED = {
    "yellow": lambda: _("Choose how many yellow dice to buy (1 gold each) before the roll."),
    "action": lambda: _(
        "Choose what to do with the dice group: move the supervisor, take its action "
        "or draw a card."
    ),
    "boost": lambda: _("Discard cards for +1 each to the action, or carry it out."),
    "place": lambda: _("Choose a shop for your cube."),
    "card_place": lambda: _("Choose a shop for your cube."),
    "move": lambda: _("Choose where the supervisor stops."),
    "order": lambda: _("Choose whose cube goes to the caravan first."),
    "send": lambda: _("Send your cube to the caravan, or pay a camel to keep it."),
    "build": lambda: _("Choose a building to build, or pass."),
    "end": lambda: _("Play a card, or end your turn."),
    "card_swap": lambda: _("Choose how much gold or how many camels to exchange."),
    "card_score_gold": lambda: _("Choose how much gold to turn into points."),
    "card_score_camels": lambda: _("Choose how many camels to turn into points."),
}


def prompt(s: State, seat: int | None = None) -> str:
    """The decision `seat` (the actor) is asked for now; "" when the game is over."""
    if s.over:
        return ""
    if s.stage == "row":
        n = len(flow.usable_rows(s, s.actor))
        if not n:
            return _("No dice group is left for you: draw a card.")
        return ngettext("Choose the dice group.", "Choose one of the {n} dice groups.", n).format(
            n=n
        )
    text = _FIXED.get(s.stage)
    return text() if text else _("Choose your move.")
