"""What the pending decision is, in one sentence for the player who makes it (the match
page's prompt), per stage; all through the engines' `_()`, whole sentences."""

from __future__ import annotations

from games.engines.i18n import _

from .state import State

_FIXED = {
    "setup_scout": lambda: _("Choose the village where your scout starts."),
    "draw": lambda: _("Draw a wall piece or a chip."),
    "use": lambda: _("Choose what to use this turn: your walls or your chips, or lift your scout."),
    "wall": lambda: _("Choose where to build a wall."),
    "scout": lambda: _("Choose the village your scout comes back to."),
    "move": lambda: _("Choose where your scout goes."),
    "lay": lambda: _("Choose a chip to lay in your scout's village."),
}


def prompt(s: State, seat: int | None = None) -> str:
    """The decision `seat` (the actor) is asked for now; "" when the game is over."""
    if s.over:
        return ""
    if s.stage == "setup_chip":
        if s.setup_first < 0:
            return _("Choose a starting chip, then the village to lay it in.")
        return _("Choose your second starting chip and a village next to the first.")
    text = _FIXED.get(s.stage)
    return text() if text else _("Choose your move.")
