"""Build Silk Road states by hand for scenario tests (rulebook examples)."""

from __future__ import annotations

from games.engines.rng import GameRandom
from games.engines.silkroad import ENGINE
from games.engines.silkroad.constants import COLOUR_INDEX, GOOD_INDEX, GOODS
from games.engines.silkroad.flow import advance
from games.engines.silkroad.state import Caravan, State

BOARD = ENGINE.board
E = ENGINE

# build() arguments: the one-camel caravan a step from Samarkand, which holds the
# last gem (one card there ends the game)
ONE_STEP_TO_SAMARKAND = {
    "caravans": {1: ("v13", "samarkand", [5])},
    "city_gems": {"samarkand": {"red": 1}},
}


def sp(space_id: str) -> int:
    return BOARD.index[space_id]


def goods(d: dict[str, int] | None) -> list[int]:
    out = [0] * 5
    for g, k in (d or {}).items():
        out[GOOD_INDEX[g]] = k
    return out


def colours(d: dict[str, int] | None) -> list[int]:
    out = [0] * 5
    for c, k in (d or {}).items():
        out[COLOUR_INDEX[c]] = k
    return out


def cards(names: list[str]) -> list[int]:
    return [GOOD_INDEX[g] for g in names]


def build(
    players: int = 4,
    *,
    hands: dict[int, dict[str, int]] | None = None,
    fields: dict[int, dict[str, int]] | None = None,
    drivers: list[int] | None = None,
    caravans: dict[int, tuple[str, str, list[int]]] | None = None,
    queue: list[int] | None = None,
    city_gems: dict[str, dict[str, int]] | None = None,
    bag: dict[str, int] | None = None,
    display: list[str] | None = None,
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    tiles: dict[str, str] | None = None,
    seat: int = 0,
    gems: dict[int, dict[str, int]] | None = None,
    colourless: dict[int, int] | None = None,
    ending: bool = False,
    seed: int = 0,
    start: bool = True,
) -> State:
    """A state at the start of `seat`'s turn (advanced to its first decision).

    Caravans: size -> (space id, target city id, camel values). Anything not
    given is empty; deck lists cards bottom to top (the last is drawn first)."""
    options = E.default_options()
    tile_list = list(BOARD.printed_tiles)
    for vid, kind in (tiles or {}).items():
        tile_list[sp(vid)] = kind
    cars: list = [None, None, None, None]
    for size, (pos, target, camels) in (caravans or {}).items():
        assert len(camels) == size
        cars[size] = Caravan(sp(pos), sp(target), list(camels))
    cg = [[0] * 5 for _ in range(6)]
    for city, d in (city_gems or {}).items():
        cg[sp(city)] = colours(d)
    bag_list = [c for c, k in enumerate(colours(bag)) for _ in range(k)]
    disp = [0] * 5
    for g in display or []:
        disp[GOOD_INDEX[g]] += 1
    held_colourless = [0] * players
    for p, k in (colourless or {}).items():
        held_colourless[p] = k
    s = State(
        n=players,
        rng=GameRandom(seed),
        options=options,
        tiles=tile_list,
        caravans=cars,
        queue=list(queue or []),
        city_gems=cg,
        bag=bag_list,
        removed_seen=[0] * 5,
        removed_unseen=[0] * 5,
        colourless_supply=10 - sum(held_colourless),
        hands=[goods((hands or {}).get(p)) for p in range(players)],
        fields=[goods((fields or {}).get(p)) for p in range(players)],
        gems=[colours((gems or {}).get(p)) for p in range(players)],
        colourless=held_colourless,
        tokens=[0] * players,
        drivers=list(drivers or range(1, players + 1)),
        display=disp,
        deck=cards(deck or []),
        discard=cards(discard or []),
        seat=seat,
        actor=seat,
        stage="start_turn",
        ending=ending,
    )
    if start:
        advance(s, BOARD)
    return s


def act(s: State, **action) -> State:
    """Apply one action given as keywords (type=..., ...), checking it is listed as legal."""
    assert action in E.legal_actions(s), (action, s.stage, E.legal_actions(s))
    return E.apply(s, action)


def hand(s: State, p: int) -> dict[str, int]:
    return {GOODS[g]: k for g, k in enumerate(s.hands[p]) if k}


def field(s: State, p: int) -> dict[str, int]:
    return {GOODS[g]: k for g, k in enumerate(s.fields[p]) if k}


def names(counts: list[int]) -> dict[str, int]:
    return {GOODS[g]: k for g, k in enumerate(counts) if k}
