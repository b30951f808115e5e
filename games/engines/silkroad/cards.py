"""Moving goods cards between the deck, the display, hands, fields and the discard pile."""

from __future__ import annotations

from .constants import DISPLAY_SIZE
from .state import State


def _rebuild_deck(s: State) -> None:
    # "Whoever takes the last deck card": the discard pile becomes the new deck.
    if s.discard:
        s.deck = s.discard
        s.discard = []
        s.rng.shuffle(s.deck)


def draw_deck(s: State) -> int:
    """Take the top deck card; -1 if no card is left in the deck or the discard pile."""
    if not s.deck:
        # the deck ran out earlier while the discard pile was empty
        _rebuild_deck(s)
        if not s.deck:
            return -1
    card = s.deck.pop()
    if not s.deck:
        _rebuild_deck(s)
    return card


def deck_available(s: State) -> bool:
    return bool(s.deck) or bool(s.discard)


def can_draw(s: State) -> bool:
    return bool(s.deck) or bool(s.discard) or any(s.display)


def refill_display(s: State) -> None:
    """End of turn: the display goes back up to 3 cards (fewer if no card is left)."""
    missing = DISPLAY_SIZE - sum(s.display)
    for _ in range(missing):
        card = draw_deck(s)
        if card < 0:
            return
        s.display[card] += 1


def discard(s: State, good: int, count: int = 1) -> None:
    s.discard.extend([good] * count)


def begin_draws(s: State) -> None:
    """Ask the player on turn for the next card draw, or move on when none is owed/possible."""
    if s.draws_left > 0 and can_draw(s):
        s.stage = "draw"
        s.actor = s.seat
    else:
        s.draws_left = 0
        s.stage = s.after_draw
