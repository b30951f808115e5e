"""After a great market: camels home, the next caravan or the end of the game."""

from __future__ import annotations

from . import market
from .board import Board
from .constants import CAMEL_GOOD, NUM_CITIES
from .state import Caravan, State


def market_done(s: State, board: Board) -> None:
    m = s.market
    city = m.place
    # gems nobody took leave the game; camels queue up in sale order
    for colour, k in enumerate(s.city_gems[city]):
        s.removed_seen[colour] += k
        s.city_gems[city][colour] = 0
    s.queue.extend(m.camels)
    s.caravans[m.size] = None
    s.market = None
    if m.kind == "final":
        game_over(s)
    elif not s.ending:
        new_caravan(s, city, m.size)
        s.stage = "end_turn"
    else:
        _last_caravan(s)


def new_caravan(s: State, city: int, size: int) -> None:
    """A caravan of the same size sets out from the city (examples 9-11), or the end begins."""
    if len(s.bag) < size:
        # not enough gems for a new target: they leave the game unseen, camels stay queued
        for colour in s.bag:
            s.removed_unseen[colour] += 1
        s.bag = []
        s.ending = True
        return
    camels = s.queue[:size]
    del s.queue[:size]
    s.caravans[size] = caravan = Caravan(city, -1, camels)
    caravan.target = new_target(s, city, size)
    for _ in range(size):
        i = s.rng.randrange(len(s.bag))
        s.bag[i], s.bag[-1] = s.bag[-1], s.bag[i]
        s.city_gems[caravan.target][s.bag.pop()] += 1


def new_target(s: State, city: int, size: int) -> int:
    """Count `size` free cities clockwise from `city`, going round again if needed.

    Free = no camels and no gems (example 10). There is always one: at most
    the new caravan's city, two target cities and two cities with caravans
    that have not left yet are taken."""
    taken = {c.pos for c in s.caravans if c is not None and c.pos < NUM_CITIES}
    ring = [(city + k) % NUM_CITIES for k in range(1, NUM_CITIES)]
    free = [c for c in ring if c not in taken and not any(s.city_gems[c])]
    return free[(size - 1) % len(free)]


def _last_caravan(s: State) -> None:
    """The second arrival after the bag ran dry: the last caravan goes straight home.

    Before that final market everyone may lay out hand cards; only cards of
    goods on sale can matter, so each player, in turn order from the mover,
    is asked how many cards of each such good to lay out. Players without
    such cards are asked too (the only answer is 0): skipping them would
    tell the table what is in their hands."""
    sizes = [size for size in (1, 2, 3) if s.caravans[size] is not None]
    if not sizes:
        game_over(s)
        return
    size = sizes[0]
    caravan = s.caravans[size]
    caravan.pos = caravan.target
    s.moved = size
    goods: list[int] = []
    for c in sorted(caravan.camels, reverse=True):
        if CAMEL_GOOD[c] not in goods:
            goods.append(CAMEL_GOOD[c])
    order = [(s.seat + k) % s.n for k in range(s.n)]
    s.layout = [[p, g] for p in order for g in goods]
    layout_next(s)


def layout_next(s: State) -> None:
    if s.layout:
        s.stage = "layout"
        s.actor = s.layout[0][0]
        return
    caravan = s.caravans[s.moved]
    market.begin(s, "final", caravan.pos, s.moved, sorted(caravan.camels, reverse=True))


def lay_out(s: State, count: int) -> None:
    seat, good = s.layout.pop(0)
    s.hands[seat][good] -= count
    s.fields[seat][good] += count
    layout_next(s)


def game_over(s: State, stalled: bool = False) -> None:
    s.over = True
    s.stalled = stalled
    s.stage = "over"
    s.actor = -1
    s.pending = []
    s.layout = []
