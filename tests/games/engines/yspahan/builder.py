"""Build Yspahan states by hand for scenario tests."""

from __future__ import annotations

from games.engines.yspahan import ENGINE
from games.engines.yspahan.board import BOARD
from games.engines.yspahan.constants import BUILDING_INDEX, CARD_INDEX, CARDS, ROW_INDEX
from games.engines.yspahan.flow import begin_turn, day_order, new_state, tower_rows
from games.engines.yspahan.state import State

E = ENGINE


def counts(names: list[str] | dict[str, int] | None) -> list[int]:
    out = [0] * len(CARDS)
    if isinstance(names, dict):
        for c, k in names.items():
            out[CARD_INDEX[c]] += k
    else:
        for c in names or []:
            out[CARD_INDEX[c]] += 1
    return out


def dice(values: list[int]) -> list[int]:
    out = [0] * 7
    for v in values:
        out[v] += 1
    return out


def build(
    players: int = 4,
    *,
    week: int = 1,
    day: int = 1,
    start: int = 0,
    prev_start: int | None = None,
    white: list[int] | None = None,
    yellow: list[int] | None = None,
    turn: int = 0,
    taken: list[str] | None = None,
    gold: list[int] | None = None,
    camels: list[int] | None = None,
    vp: list[int] | None = None,
    hands: dict[int, list[str] | dict[str, int]] | None = None,
    built: dict[int, list[str]] | None = None,
    shops: dict[str, int] | None = None,
    caravan: list[int] | None = None,
    supervisor: str = "s10",
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    seed: int = 0,
    rolled: bool = True,
) -> State:
    """A state at the start of a turn (stage "row"), or before the roll (stage "yellow").

    `white`/`yellow` are the dice values rolled; rows in `taken` are already used.
    The deck lists cards bottom to top (the last is drawn first); without `deck`
    the deck holds every card not in a hand or the discard pile."""
    s = new_state(players, seed, {})
    s.week, s.day, s.start = week, day, start
    s.prev_start = (start + 1) % players if prev_start is None else prev_start
    s.vp = list(vp) if vp is not None else [0] * players
    s.order = day_order(s)
    s.turn = turn
    s.gold = list(gold) if gold is not None else [2] * players
    s.camels = list(camels) if camels is not None else [0] * players
    s.hands = [counts((hands or {}).get(p)) for p in range(players)]
    s.built = [[0] * 6 for _ in range(players)]
    for p, names in (built or {}).items():
        for b in names:
            s.built[p][BUILDING_INDEX[b]] = 1
    s.shops = [-1] * len(BOARD.shop_ids)
    for shop, p in (shops or {}).items():
        s.shops[BOARD.shop_index[shop]] = p
    s.recount_souks()
    s.caravan = list(caravan or [])
    s.supervisor = BOARD.cell_index[supervisor]
    s.discard = counts(discard)
    if deck is None:
        left = [2] * len(CARDS)
        for h in s.hands:
            left = [a - b for a, b in zip(left, h, strict=True)]
        left = [a - b for a, b in zip(left, s.discard, strict=True)]
        s.deck = [k for k, c in enumerate(left) for _ in range(c)]
    else:
        s.deck = [CARD_INDEX[c] for c in deck]
    begin_turn(s)
    s.yellow = len(yellow or [])
    if rolled:
        s.rows = tower_rows(dice(white or [1, 2, 3, 4, 5, 6, 6, 6, 6]), dice(yellow or []))
        for r in taken or []:
            s.rows[ROW_INDEX[r]][3] = 1
    else:
        s.rows = [[0, 0, 0, 0] for _ in range(6)]
        s.stage = "yellow"
    s._legal = None
    return s


def act(s: State, **action) -> State:
    """Apply one action given as keywords, checking that it is listed as legal."""
    legal = E.legal_actions(s)
    assert action in legal, (action, s.stage, legal)
    return E.apply(s, action)


def hand(s: State, p: int) -> dict[str, int]:
    return {CARDS[k]: c for k, c in enumerate(s.hands[p]) if c}


def owners(s: State) -> dict[str, int]:
    return {BOARD.shop_ids[x]: p for x, p in enumerate(s.shops) if p >= 0}


def types(s: State) -> list[str]:
    return [a["type"] for a in E.legal_actions(s)]
