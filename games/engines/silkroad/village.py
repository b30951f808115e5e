"""The village actions (rulebook, "Akce") and the decisions they ask for."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from . import market
from .cards import begin_draws, draw_deck
from .constants import CAMEL_GOOD, GOOD_INDEX, HAND_SIZE
from .scoring import gain_colourless
from .state import State


def others_from_left(s: State) -> list[int]:
    return [(s.seat + k) % s.n for k in range(1, s.n)]


def start(s: State, kind: str) -> None:
    """Carry out the action of the village where the moved caravan stopped."""
    size = s.moved
    caravan = s.caravans[size]
    if kind.startswith("small_market_"):
        good = GOOD_INDEX[kind[len("small_market_") :]]
        on_board = [c for c in caravan.camels if CAMEL_GOOD[c] == good]
        if on_board:
            market.begin(s, "small", caravan.pos, size, [max(on_board)])
        else:
            s.stage = "end_turn"  # example 13: the caravan lacks the good
    elif kind == "black_market":
        market.begin(s, "small", caravan.pos, size, [max(caravan.camels)])
    elif kind.startswith("camels_"):
        if size <= int(kind[-1]):
            s.draws_left = 1
            s.after_draw = "end_turn"
            s.draw_reason = "camels"
            begin_draws(s)
        else:
            s.stage = "end_turn"
    elif kind == "customs":
        s.pending = others_from_left(s)
        customs_next(s)
    elif kind == "sandstorm":
        s.pending = others_from_left(s)
        sandstorm_next(s)
    elif kind == "robbers":
        s.robbed = []
        s.actor = s.seat
        rob_next(s)
    elif kind == "bazaar":
        if sum(1 for k in s.fields[s.seat] if k) >= 3:
            s.stage = "bazaar"
            s.actor = s.seat
        else:
            s.stage = "end_turn"  # fewer than three different goods laid out
    elif kind == "baksheesh":
        if any(s.display):
            s.stage = "baksheesh"
            s.actor = s.seat
        else:
            s.stage = "end_turn"  # nothing to take, so nothing is owed for it
    else:  # pragma: no cover - tiles are validated at setup
        raise ValueError(f"unknown action {kind}")


# ---- customs: the others, from the left, discard down to 4 hand cards
def customs_next(s: State) -> None:
    _next_pending(s, "customs", lambda p: sum(s.hands[p]) <= HAND_SIZE)


def customs_discard(s: State, good: int) -> None:
    s.hands[s.actor][good] -= 1
    s.discard.append(good)
    customs_next(s)


# ---- sandstorm: the others, from the left, discard one laid-out card
def sandstorm_next(s: State) -> None:
    _next_pending(s, "sandstorm", lambda p: not any(s.fields[p]))


def _next_pending(s: State, stage: str, settled: Callable[[int], bool]) -> None:
    """The first of ``s.pending`` not yet ``settled`` acts at ``stage``; when none is
    left, the turn ends."""
    while s.pending and settled(s.pending[0]):
        s.pending.pop(0)
    if s.pending:
        s.stage = stage
        s.actor = s.pending[0]
    else:
        s.stage = "end_turn"


def sandstorm_discard(s: State, good: int) -> None:
    s.fields[s.actor][good] -= 1
    s.discard.append(good)
    s.pending.pop(0)
    sandstorm_next(s)


# ---- robbers: a chain of thefts from laid-out fields (examples 15 and 16)
def victims(s: State) -> list[int]:
    robber = s.actor
    return [
        p
        for p in range(s.n)
        if p != robber and p != s.seat and p not in s.robbed and any(s.fields[p])
    ]


def rob_next(s: State) -> None:
    if victims(s):
        s.stage = "rob"
        return
    # the last in the chain takes the top discard, else the top deck card
    card = s.discard.pop() if s.discard else draw_deck(s)
    if card >= 0:
        s.fields[s.actor][card] += 1
    s.robbed = []
    s.stage = "end_turn"


def rob(s: State, victim: int, good: int) -> None:
    s.fields[victim][good] -= 1
    s.fields[s.actor][good] += 1
    s.robbed.append(victim)
    s.actor = victim
    rob_next(s)


# ---- bazaar: three different laid-out goods for a colourless gem
def bazaar_choices(s: State) -> list[tuple[int, int, int]]:
    goods = [g for g, k in enumerate(s.fields[s.seat]) if k]
    return list(combinations(goods, 3))


def bazaar(s: State, goods: tuple[int, ...]) -> None:
    for g in goods:
        s.fields[s.seat][g] -= 1
        s.discard.append(g)
    gain_colourless(s, s.seat)
    s.stage = "end_turn"


# ---- baksheesh: a display card onto the field, then a hand card discarded
def baksheesh_take(s: State, good: int) -> None:
    s.display[good] -= 1
    s.fields[s.seat][good] += 1
    if any(s.hands[s.seat]):
        s.stage = "baksheesh_discard"
    else:
        s.stage = "end_turn"  # nothing in hand to give


def baksheesh_discard(s: State, good: int) -> None:
    s.hands[s.seat][good] -= 1
    s.discard.append(good)
    s.stage = "end_turn"
