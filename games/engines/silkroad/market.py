"""Great, small and black markets: who may sell, selling or declining, gems, driver swaps.

A market sells its camels one at a time in the given order. For each
camel, the players with laid-out cards of its good hold the right to sell
in order of card count, ties to the higher camel driver. The one holding
the right sells or declines; a decline passes the right on. After a sale
the seller swaps drivers with the lowest driver among the players still
holding the right who had as many cards (the tie the driver decided).
"""

from __future__ import annotations

from .constants import CAMEL_GOOD, NUM_CITIES
from .scoring import gain_colourless
from .state import Market, State


def begin(s: State, kind: str, place: int, size: int, camels: list[int]) -> None:
    s.market = Market(kind, place, size, camels)
    _next_sale(s)


def good_on_sale(s: State) -> int:
    m = s.market
    return CAMEL_GOOD[m.camels[m.idx]]


def candidates(s: State, good: int) -> list[int]:
    cands = [p for p in range(s.n) if s.fields[p][good] > 0]
    cands.sort(key=lambda p: (-s.fields[p][good], -s.drivers[p]))
    return cands


def _next_sale(s: State) -> None:
    m = s.market
    while m.idx < len(m.camels):
        cands = candidates(s, CAMEL_GOOD[m.camels[m.idx]])
        if cands:
            m.cands = cands
            m.cidx = 0
            m.swap = -1
            s.stage = "sell"
            s.actor = cands[0]
            return
        if m.kind == "small":
            break  # no buyer: the action lapses
        m.idx += 1
    _finish(s)


def sell(s: State) -> None:
    m = s.market
    good = CAMEL_GOOD[m.camels[m.idx]]
    seller = m.cands[m.cidx]
    n = s.fields[seller][good]
    tied = [p for p in m.cands[m.cidx :] if s.fields[p][good] == n]
    m.swap = tied[-1] if len(tied) > 1 else -1  # cands are sorted: last = lowest driver
    lose = (n + 1) // 2  # half, rounded up
    s.fields[seller][good] -= lose
    s.discard.extend([good] * lose)
    if m.kind == "small":
        gain_colourless(s, seller)
        _swap_drivers(s, seller)
        m.sold = True
        _finish(s)
    elif any(s.city_gems[m.place]):
        s.stage = "gem"
        s.actor = seller
    else:  # cannot happen with a city's gems = caravan size; kept so play never stalls
        _swap_drivers(s, seller)
        m.idx += 1
        _next_sale(s)


def decline(s: State) -> None:
    m = s.market
    m.cidx += 1
    if m.cidx < len(m.cands):
        s.actor = m.cands[m.cidx]
        return
    if m.kind != "small":
        m.idx += 1
        _next_sale(s)
    else:
        _finish(s)


def take_gem(s: State, colour: int) -> None:
    m = s.market
    seller = m.cands[m.cidx]
    s.city_gems[m.place][colour] -= 1
    s.gems[seller][colour] += 1
    _swap_drivers(s, seller)
    m.idx += 1
    _next_sale(s)


def _swap_drivers(s: State, seller: int) -> None:
    other = s.market.swap
    if other >= 0:
        s.drivers[seller], s.drivers[other] = s.drivers[other], s.drivers[seller]


def _finish(s: State) -> None:
    m = s.market
    if m.kind != "small":
        s.stage = "market_done"  # flow/endgame continue: camels back, next caravan
        return
    if m.sold and s.queue:
        # the first waiting camel joins; the sold one goes to the end of the queue
        caravan = s.caravans[m.size]
        sold = m.camels[0]
        caravan.camels[caravan.camels.index(sold)] = s.queue.pop(0)
        s.queue.append(sold)
    s.market = None
    s.stage = "end_turn"


def gem_choices(s: State) -> list[int]:
    m = s.market
    assert m.place < NUM_CITIES
    return [c for c, k in enumerate(s.city_gems[m.place]) if k]
