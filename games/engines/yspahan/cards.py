"""The deck: drawing (reshuffling the played cards when it runs out), discarding."""

from __future__ import annotations

from .constants import CARD_COUNTS
from .state import State


def draw(s: State, p: int) -> bool:
    """`p` draws the top card; an empty deck is first rebuilt from the played cards.

    Returns False when there is no card anywhere to draw (all in hands)."""
    if not s.deck:
        if not any(s.discard):
            return False
        s.deck = [k for k, c in enumerate(s.discard) for _ in range(c)]
        s.discard = [0] * len(CARD_COUNTS)
        s.rng.shuffle(s.deck)
    s.hands[p][s.deck.pop()] += 1
    return True


def discard(s: State, p: int, kind: int) -> None:
    s.hands[p][kind] -= 1
    s.discard[kind] += 1
