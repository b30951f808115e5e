"""What one seat (or a spectator) may know, and hidden information resampled for it.

Hidden from a seat: the other hands (sizes shown), the deck order (size
shown), the bag (size shown), gems the bag lost at the end (number shown),
the colours of other players' gems behind their screens (numbers shown,
until the game ends and the screens come down) and the random generator.
Everything else lies open on the table, the discard pile included.
"""

from __future__ import annotations

import random

from games.engines.rng import GameRandom

from . import market
from .board import Board
from .constants import (
    COLOURS,
    GOODS,
    HAND_SIZE,
    TOKENS,
    camel_json,
)
from .labels import action_label
from .rules import legal_actions
from .scoring import colourless_points, set_points
from .state import State
from .village import victims


def _goods(counts: list[int]) -> dict[str, int]:
    return {GOODS[g]: k for g, k in enumerate(counts) if k}


def _colours(counts: list[int]) -> dict[str, int]:
    return {COLOURS[c]: k for c, k in enumerate(counts) if k}


def _cards(counts: list[int]) -> list[str]:
    return [GOODS[g] for g, k in enumerate(counts) for _ in range(k)]


def observe(s: State, board: Board, seat: int | None) -> dict:
    ids = board.ids
    players = []
    for p in range(s.n):
        mine = seat == p
        open_gems = mine or s.over
        entry = {
            "seat": p,
            "driver": s.drivers[p],
            "hand_count": sum(s.hands[p]),
            "field": _goods(s.fields[p]),
            "gem_count": sum(s.gems[p]),
            "colourless": s.colourless[p],
            "tokens": s.tokens[p],
        }
        if mine:
            entry["hand"] = _goods(s.hands[p])
        if open_gems:
            entry["gems"] = _colours(s.gems[p])
            entry["score"] = set_points(s.gems[p]) + colourless_points(s.colourless[p], s.tokens[p])
        else:
            entry["colourless_score"] = colourless_points(s.colourless[p], s.tokens[p])
        players.append(entry)

    caravans = []
    for size in (1, 2, 3):
        c = s.caravans[size]
        if c is not None:
            caravans.append(
                {
                    "size": size,
                    "space": ids[c.pos],
                    "target": ids[c.target],
                    "camels": [camel_json(v) for v in c.camels],
                }
            )

    obs = {
        "game": "silkroad",
        "seat": seat,
        "num_players": s.n,
        "turn": s.turn,
        "ply": s.ply,
        "on_turn": s.seat,
        "board": {
            "side": s.options["board_side"],
            "tiles": {ids[v]: s.tiles[v] for v in board.villages},
        },
        "caravans": caravans,
        "caravanserai": {
            "camels": [camel_json(v) for v in s.queue],
            "colourless": s.colourless_supply,
            "tokens": max(0, TOKENS - sum(s.tokens)),
        },
        "city_gems": {ids[c]: _colours(s.city_gems[c]) for c in range(6) if any(s.city_gems[c])},
        "bag": len(s.bag),
        "removed_gems": {"seen": _colours(s.removed_seen), "unseen": sum(s.removed_unseen)},
        "display": _cards(s.display),
        "deck": len(s.deck),
        "discard": [GOODS[g] for g in s.discard],
        "players": players,
        "ending": s.ending,
        "over": s.over,
        "decision": None if s.over else decision(s, board),
    }
    if s.over:
        obs["stalled"] = s.stalled
    elif seat is not None and seat == s.actor:
        obs["legal"] = legal_actions(s, board)
    return obs


def decision(s: State, board: Board) -> dict:
    """The pending decision: whose it is, its kind, and what a UI needs to show it."""
    d: dict = {"seat": s.actor, "kind": s.stage}
    stage = s.stage
    if stage == "route":
        d["caravan"] = s.moved
        d["options"] = [board.ids[x] for x in s.route]
    elif stage == "draw":
        d["reason"] = s.draw_reason
        d["left"] = s.draws_left
    elif stage == "customs":
        d["discard"] = sum(s.hands[s.actor]) - HAND_SIZE
    elif stage == "rob":
        d["victims"] = victims(s)
        d["robbed"] = s.robbed[:]
    elif stage == "layout":
        d["good"] = GOODS[s.layout[0][1]]
    elif stage in ("bazaar", "baksheesh", "baksheesh_discard", "sandstorm"):
        caravan = s.caravans[s.moved]
        d["village"] = board.ids[caravan.pos]
        d["action"] = action_label(s.tiles[caravan.pos])
    m = s.market
    if m is not None:
        d["market"] = {
            "kind": m.kind,
            "place": board.ids[m.place],
            "caravan": m.size,
            "sales": [camel_json(v) for v in m.camels],
            "selling": m.idx,
        }
        if stage in ("sell", "gem"):
            good = market.good_on_sale(s)
            d["good"] = GOODS[good]
            d["value"] = m.camels[m.idx]
            d["cards"] = s.fields[s.actor][good]
    return d


def determinize(s: State, seat: int, rng: random.Random) -> State:
    """A copy of `s` with everything hidden from `seat` dealt anew from `rng`."""
    t = s.copy()
    others = [p for p in range(t.n) if p != seat]

    cards = list(t.deck)
    for p in others:
        cards.extend(_cards_idx(t.hands[p]))
    rng.shuffle(cards)
    _deal(cards, t.hands, others)
    t.deck = cards

    if not t.over:  # screens come down at the end
        gems = list(t.bag)
        for p in others:
            gems.extend(_cards_idx(t.gems[p]))
        gems.extend(_cards_idx(t.removed_unseen))
        rng.shuffle(gems)
        _deal(gems, t.gems, others)
        unseen = [0] * 5
        for c in gems[len(t.bag) :]:
            unseen[c] += 1
        t.bag = gems[: len(t.bag)]
        t.removed_unseen = unseen

    t.rng = GameRandom(rng.getrandbits(64))  # reseeded: future draws are not predictable
    return t


def _cards_idx(counts: list[int]) -> list[int]:
    return [i for i, k in enumerate(counts) for _ in range(k)]


def _deal(pool: list[int], counts: list[list[int]], seats: list[int]) -> None:
    """Deal from the front of ``pool`` to each of ``seats`` as many as it holds in
    ``counts`` (its counts per kind replaced); the rest stays in ``pool``."""
    for p in seats:
        size = sum(counts[p])
        held = [0] * 5
        for k in pool[:size]:
            held[k] += 1
        del pool[:size]
        counts[p] = held
