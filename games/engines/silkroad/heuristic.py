"""A quick evaluation for bots: how good the state looks for one seat, in [0, 1].

It uses only what that seat may know: its own hand and gems, and for the
others only public facts (hand sizes, laid-out fields, gem counts, drivers).
Each player gets a value in points-to-be:
  gems held (own colours exactly; others by count, as if evenly spread)
+ the gems of every target city credited to whoever would sell each camel's
  good now (most laid-out cards, then driver), discounted by the caravan's
  distance from its target (a running market is credited as it stands)
+ a little for cards in hand, cards to be drawn and laid-out cards
+ a hair for the driver (the final tie-break).
The seat's value is then compared with the best and the average opponent.
"""

from __future__ import annotations

import math

from .board import Board
from .constants import CAMEL_GOOD, COLOURLESS_POINTS, SET_POINTS
from .scoring import colourless_points, score
from .state import State

GEM = 3.0  # a coloured gem, in points, when its colour is not known
HAND_CARD = 0.35
FIELD_CARD = 0.12
DRIVER = 0.05
SCALE = 7.0  # points lead that makes a clear favourite


def _estimated_sets(count: int) -> float:
    """Set points of `count` gems of unknown colours, spread as evenly as possible."""
    full, rest = divmod(count, 5)
    return 0.85 * (full * SET_POINTS[5] + SET_POINTS[rest])


def _gem_gain(s: State, seat: int, me: int, city: int) -> float:
    """What one gem from `city` adds for `seat`: exact for `me`, else the average.

    A gem of a colour held k times joins the (k+1)-th set, which holds the m
    colours held more than k times; the set grows from m to m+1 colours,
    worth m+1 more points."""
    if seat != me:
        return GEM
    held = s.gems[seat]
    best = 0
    for colour, k in enumerate(s.city_gems[city]):
        if k:
            own = held[colour]
            gain = 1 + sum(1 for h in held if h > own)
            if gain > best:
                best = gain
    return float(best) if best else GEM


def _leaders(s: State, counts: list[list[int]], among) -> list[int]:
    """Per good, who would hold the right to sell now (most cards, then driver); -1: nobody."""
    best = [-1] * 5
    key = [(0, 0)] * 5
    drivers = s.drivers
    for p in among:
        row = counts[p]
        for g in range(5):
            k = row[g]
            if k and (k, drivers[p]) > key[g]:
                best[g] = p
                key[g] = (k, drivers[p])
    return best


def _credit_market(s: State, me: int, value: list[float]) -> None:
    m = s.market
    counts = [f[:] for f in s.fields]
    camels = m.camels[m.idx :]
    first = 0
    if s.stage == "gem":
        value[s.actor] += _gem_gain(s, s.actor, me, m.place)
        first = 1
    everyone = range(s.n)
    for i in range(first, len(camels)):
        good = CAMEL_GOOD[camels[i]]
        among = m.cands[m.cidx :] if i == 0 and s.stage == "sell" else everyone
        p = _leaders(s, counts, among)[good]
        if p < 0:
            continue
        if m.kind == "small":
            # a third colourless gem turns 4 points into an 8-point token
            value[p] += 2 * COLOURLESS_POINTS if s.colourless[p] == 2 else COLOURLESS_POINTS
        else:
            value[p] += _gem_gain(s, p, me, m.place)
        counts[p][good] -= (counts[p][good] + 1) // 2


def _credit_caravans(s: State, board: Board, me: int, value: list[float]) -> None:
    leaders = _leaders(s, s.fields, range(s.n))
    for size in (1, 2, 3):
        caravan = s.caravans[size]
        if caravan is None or (s.market is not None and s.market.size == size):
            continue
        weight = 1.0 / (1.0 + board.dist[caravan.target][caravan.pos] / 2.5)
        mine = -1.0
        for camel in caravan.camels:
            p = leaders[CAMEL_GOOD[camel]]
            if p < 0:
                continue
            if p != me:
                value[p] += GEM * weight
            else:
                if mine < 0:
                    mine = _gem_gain(s, me, me, caravan.target)
                value[p] += mine * weight


def values(s: State, board: Board, me: int) -> list[float]:
    value = []
    for p in range(s.n):
        if p == me:
            v = float(score(s, p))
        else:
            v = _estimated_sets(sum(s.gems[p])) + colourless_points(s.colourless[p], s.tokens[p])
        v += HAND_CARD * sum(s.hands[p]) + FIELD_CARD * sum(s.fields[p]) + DRIVER * s.drivers[p]
        value.append(v)
    if s.stage == "draw":
        value[s.seat] += HAND_CARD * s.draws_left
    if s.market is not None:
        _credit_market(s, me, value)
    _credit_caravans(s, board, me, value)
    return value


def evaluate(s: State, board: Board, seat: int) -> float:
    n = s.n
    if s.over:
        scores = [score(s, p) for p in range(n)]
        better = sum(
            1 for p in range(n) if (scores[p], s.drivers[p]) > (scores[seat], s.drivers[seat])
        )
        return 1.0 - better / (n - 1)
    v = values(s, board, seat)
    others = [v[p] for p in range(n) if p != seat]
    lead_best = v[seat] - max(others)
    lead_avg = v[seat] - sum(others) / len(others)
    x = (0.6 * lead_best + 0.4 * lead_avg) / SCALE
    return 1.0 / (1.0 + math.exp(-x))
