"""Shops and souks: where a cube may go, placing and removing cubes.

A souk belongs to the player who started it: nobody else may place in it.
With the row action a player must first fill a souk he started in the
district before starting another one there (seed: "must prefer a partly
filled souk to an empty one"). The place_board card only forbids souks
started by another player (see README.md).
"""

from __future__ import annotations

from .board import BOARD
from .state import State

_DISTRICT_SOUKS = BOARD.district_souks
_SOUK_SHOPS = BOARD.souk_shops
_SOUK_SIZE = BOARD.souk_size
_SHOP_SOUK = BOARD.shop_souk
_ALL_SOUKS = tuple(range(len(BOARD.souk_ids)))


def district_shops(s: State, p: int, district: int) -> list[int]:
    """Empty shops where `p` may place a cube of a row action in `district`."""
    owner = s.souk_owner
    count = s.souk_count
    partial = []
    fresh = []
    for k in _DISTRICT_SOUKS[district]:
        o = owner[k]
        if o < 0:
            fresh.append(k)
        elif o == p and count[k] < _SOUK_SIZE[k]:
            partial.append(k)
    if partial:
        shops = s.shops
        return [x for k in partial for x in _SOUK_SHOPS[k] if shops[x] < 0]
    return [x for k in fresh for x in _SOUK_SHOPS[k]]


def can_place_in_district(s: State, p: int, district: int) -> bool:
    owner = s.souk_owner
    count = s.souk_count
    for k in _DISTRICT_SOUKS[district]:
        o = owner[k]
        if o < 0 or (o == p and count[k] < _SOUK_SIZE[k]):
            return True
    return False


def card_shops(s: State, p: int) -> list[int]:
    """Empty shops where `p` may place the cube of the place_board card (any district)."""
    owner = s.souk_owner
    count = s.souk_count
    shops = s.shops
    out = []
    for k in _ALL_SOUKS:
        o = owner[k]
        if o < 0:
            out.extend(_SOUK_SHOPS[k])
        elif o == p and count[k] < _SOUK_SIZE[k]:
            out.extend(x for x in _SOUK_SHOPS[k] if shops[x] < 0)
    return out


def can_place_card(s: State, p: int) -> bool:
    owner = s.souk_owner
    count = s.souk_count
    for k in _ALL_SOUKS:
        o = owner[k]
        if o < 0 or (o == p and count[k] < _SOUK_SIZE[k]):
            return True
    return False


def place(s: State, shop: int, p: int) -> None:
    s.shops[shop] = p
    k = _SHOP_SOUK[shop]
    s.souk_count[k] += 1
    s.souk_owner[k] = p


def remove(s: State, shop: int) -> int:
    p = s.shops[shop]
    s.shops[shop] = -1
    k = _SHOP_SOUK[shop]
    s.souk_count[k] -= 1
    if s.souk_count[k] == 0:
        s.souk_owner[k] = -1
    return p


def clear(s: State) -> None:
    n = len(s.shops)
    s.shops = [-1] * n
    s.souk_count = [0] * len(_SOUK_SIZE)
    s.souk_owner = [-1] * len(_SOUK_SIZE)


def complete_souks(s: State) -> list[int]:
    """The souks whose every shop is filled (necessarily by their owner)."""
    count = s.souk_count
    return [k for k in _ALL_SOUKS if count[k] == _SOUK_SIZE[k]]
