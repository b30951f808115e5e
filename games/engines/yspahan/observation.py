"""What one seat (or a spectator) may know, and the hidden things resampled for it.

Hidden from a seat: the other players' cards (their number is shown), the
order of the deck (its size is shown) and the random generator. Played and
discarded cards lie face up (the discard pile is public). Everything else is
on the table.
"""

from __future__ import annotations

import random

from games.engines.rng import GameRandom

from .board import BOARD
from .constants import BUILDINGS, CARDS, ROWS
from .flow import row_value
from .rules import legal_actions, move_cost
from .scoring import caravan_points, souk_points
from .state import State


def _cards(counts: list[int]) -> dict[str, int]:
    return {CARDS[k]: c for k, c in enumerate(counts) if c}


def observe(s: State, seat: int | None) -> dict:
    players = []
    for p in range(s.n):
        entry = {
            "seat": p,
            "vp": s.vp[p],
            "gold": s.gold[p],
            "camels": s.camels[p],
            "cards": sum(s.hands[p]),
            "buildings": [BUILDINGS[b] for b in range(6) if s.built[p][b]],
        }
        if p == seat:
            entry["hand"] = _cards(s.hands[p])
        players.append(entry)
    tower = [
        {"row": ROWS[r], "value": v, "white": w, "yellow": y, "taken": bool(t)}
        for r, (v, w, y, t) in enumerate(s.rows)
    ]
    souk_list = [
        {
            "id": BOARD.souk_ids[k],
            "district": BOARD.districts[BOARD.souk_district[k]],
            "points": BOARD.souk_points[k],
            "shops": BOARD.souk_size[k],
            "owner": s.souk_owner[k],
            "filled": s.souk_count[k],
        }
        for k in range(len(BOARD.souk_ids))
    ]
    obs: dict = {
        "game": "yspahan",
        "seat": seat,
        "num_players": s.n,
        "week": s.week,
        "day": s.day,
        "ply": s.ply,
        "start_player": s.start,
        "order": list(s.order),
        "turn_index": s.turn,
        "yellow_bought": s.yellow,
        # yellow dice count only for the start player: gone after his turn (3-4 players)
        "yellow_active": not s.over and (s.n == 2 or s.turn == 0),
        "rolled": s.stage != "yellow" or s.over,
        "tower": tower,
        "supervisor": BOARD.cell_ids[s.supervisor],
        "shops": {BOARD.shop_ids[x]: who for x, who in enumerate(s.shops) if who >= 0},
        "souks": souk_list,
        "caravan": {
            "cubes": list(s.caravan),
            "per_section": s.per_section,
            "capacity": s.capacity,
        },
        "deck": len(s.deck),
        "discard": _cards(s.discard),
        "players": players,
        "pending_points": {
            "souks": souk_points(s),
            "caravan": caravan_points(s),
        },
        "over": s.over,
    }
    if s.over:
        obs["decision"] = None
    else:
        obs["decision"] = decision(s)
        if seat is not None and seat == s.actor:
            obs["legal"] = legal_actions(s)
    return obs


def decision(s: State) -> dict:
    """The pending decision: whose, which stage, and what a UI needs to show it."""
    p = s.order[s.turn]
    d: dict = {"seat": s.actor, "stage": s.stage, "turn_player": p}
    if s.row >= 0:
        d["row"] = ROWS[s.row]
        d["row_value"] = row_value(s, p, s.row)
        d["boost"] = s.boost
    if s.stage == "place":
        d["district"] = BOARD.districts[s.district]
        d["remaining"] = s.remaining
    if s.events:
        d["sends"] = [{"shop": BOARD.shop_ids[x], "seat": who} for x, who in s.events]
    if s.resume:
        d["resume"] = s.resume
    if s.stage == "move":
        d["pips"] = s.rows[s.row][0]
        d["costs"] = {
            a["to"]: move_cost(s, p, BOARD.cell_index[a["to"]])
            for a in legal_actions(s)
            if a["type"] == "move"
        }
    return d


def determinize(s: State, seat: int, rng: random.Random) -> State:
    """A full state `seat` cannot tell from `s`: the other hands and the deck order
    resampled from the cards `seat` has not seen, and a fresh random generator."""
    w = s.copy()
    pool = list(w.deck)
    for p in range(w.n):
        if p != seat:
            for k, c in enumerate(w.hands[p]):
                pool.extend([k] * c)
    rng.shuffle(pool)
    at = 0
    for p in range(w.n):
        if p != seat:
            size = sum(w.hands[p])
            hand = [0] * len(CARDS)
            for k in pool[at : at + size]:
                hand[k] += 1
            w.hands[p] = hand
            at += size
    w.deck = pool[at:]
    w.rng = GameRandom(rng.getrandbits(64))
    return w
