"""The full game state, its fast hand-written copy and its lossless JSON form.

Players are seats 0..n-1 in clockwise order. Cards of one kind are
interchangeable, so hands and the discard pile are counts per kind (index
into constants.CARDS); the deck keeps its order (top = last). Shops hold the
owner's seat or -1; the caravan is the list of owners in fill order.
"""

from __future__ import annotations

from games.engines.rng import GameRandom
from games.engines.state_fields import fields_from_json, fields_to_json

from .board import BOARD

NSHOPS = len(BOARD.shop_ids)
NSOUKS = len(BOARD.souk_ids)

# Stages that wait for a decision of `actor` (see rules.py for their actions).
STAGES = (
    "yellow",  # the start player buys 0-3 yellow dice, then the dice are rolled
    "row",  # choose a tower row (or draw the forced card)
    "action",  # what to do with the row: supervisor, the row's action, a card (2p: build)
    "boost",  # discard cards for +1 each to the row's action, then go
    "place",  # place one cube of the row's action
    "move",  # where the supervisor stops
    "order",  # the mover chooses whose cube next goes to the caravan
    "send",  # the owner of a cube next to the supervisor: send it, or pay a camel
    "build",  # build one building or pass (3-4 players)
    "end",  # after building (or the 2p action): play cards or end the turn
    "card_place",  # card place_board: choose the shop
    "card_swap",  # card swap_camels_gold: direction and amount
    "card_score_gold",  # card score_gold: how much gold
    "card_score_camels",  # card score_camels: how many camels
)


class State:
    __slots__ = (
        "n",
        "rng",
        "options",
        "per_section",
        "capacity",
        "week",
        "day",
        "start",
        "prev_start",
        "order",
        "turn",
        "yellow",
        "rows",
        "shops",
        "souk_count",
        "souk_owner",
        "caravan",
        "supervisor",
        "gold",
        "camels",
        "vp",
        "hands",
        "built",
        "deck",
        "discard",
        "stage",
        "actor",
        "row",
        "boost",
        "remaining",
        "district",
        "events",
        "resume",
        "over",
        "ply",
        "_legal",
    )

    def __init__(self) -> None:
        self._legal = None

    def copy(self) -> State:
        c = State.__new__(State)
        c.n = self.n
        c.rng = self.rng.copy()
        c.options = self.options  # never mutated after new_game
        c.per_section = self.per_section
        c.capacity = self.capacity
        c.week = self.week
        c.day = self.day
        c.start = self.start
        c.prev_start = self.prev_start
        c.order = self.order  # replaced, never mutated
        c.turn = self.turn
        c.yellow = self.yellow
        c.rows = [r[:] for r in self.rows]
        c.shops = self.shops[:]
        c.souk_count = self.souk_count[:]
        c.souk_owner = self.souk_owner[:]
        c.caravan = self.caravan[:]
        c.supervisor = self.supervisor
        c.gold = self.gold[:]
        c.camels = self.camels[:]
        c.vp = self.vp[:]
        c.hands = [h[:] for h in self.hands]
        c.built = [b[:] for b in self.built]
        c.deck = self.deck[:]
        c.discard = self.discard[:]
        c.stage = self.stage
        c.actor = self.actor
        c.row = self.row
        c.boost = self.boost
        c.remaining = self.remaining
        c.district = self.district
        c.events = self.events[:]  # tuples
        c.resume = self.resume
        c.over = self.over
        c.ply = self.ply
        c._legal = None
        return c

    # ---- small helpers -------------------------------------------------------
    @property
    def player(self) -> int:
        """Whose turn it is (the decision may belong to another seat: sends)."""
        return self.order[self.turn]

    def recount_souks(self) -> None:
        count = [0] * NSOUKS
        owner = [-1] * NSOUKS
        souk_of = BOARD.shop_souk
        for shop, who in enumerate(self.shops):
            if who >= 0:
                k = souk_of[shop]
                count[k] += 1
                owner[k] = who
        self.souk_count = count
        self.souk_owner = owner


# row = [pip value (0 = empty), white dice, yellow dice, taken (0/1)]
_SCALARS = (
    "n",
    "per_section",
    "capacity",
    "week",
    "day",
    "start",
    "prev_start",
    "turn",
    "yellow",
    "supervisor",
    "stage",
    "actor",
    "row",
    "boost",
    "remaining",
    "district",
    "resume",
    "over",
    "ply",
)
_LISTS = ("order", "shops", "caravan", "gold", "camels", "vp", "deck", "discard")
_NESTED = ("rows", "hands", "built")


def to_json(s: State) -> dict:
    out = fields_to_json(s, _SCALARS, _LISTS, _NESTED)
    out["events"] = [list(e) for e in s.events]
    out["options"] = dict(s.options)
    out["rng"] = s.rng.to_json()
    return out


def from_json(data: dict) -> State:
    s = State()
    for name, value in fields_from_json(data, _SCALARS, _LISTS, _NESTED).items():
        setattr(s, name, value)
    s.events = [tuple(e) for e in data["events"]]
    s.options = dict(data["options"])
    s.rng = GameRandom.from_json(data["rng"])
    s.recount_souks()
    return s
