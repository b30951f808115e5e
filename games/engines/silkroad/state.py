"""The full game state, its fast copy and its lossless JSON form.

Cards of one good are interchangeable, so hands, laid-out fields and the
display are counts per good (index into GOODS); the deck and the discard
pile keep their order (top = last). Gems held and gems in cities are
counts per colour; the bag is a list of colours drawn at random.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from games.engines.rng import GameRandom

from .constants import CARAVAN_SIZES

# Stages that wait for a decision of `actor`; every other stage is passed
# through by flow.advance without asking anyone.
DECISION_STAGES = frozenset(
    {
        "play",  # choose good, card count and caravan
        "route",  # choose where the move ends when routes differ
        "draw",  # take a card from the display or the deck
        "sell",  # the seller with the right sells or declines
        "gem",  # the seller chooses a gem in the target city
        "customs",  # discard one hand card (hand above 4)
        "sandstorm",  # discard one laid-out card
        "rob",  # take a laid-out card from another player
        "bazaar",  # give three different laid-out goods for a colourless gem, or pass
        "baksheesh",  # take a display card onto the field
        "baksheesh_discard",  # then discard a hand card
        "layout",  # final market: lay out hand cards of a good being sold
    }
)


@dataclass(slots=True)
class Caravan:
    pos: int  # space index
    target: int  # city index
    camels: list[int]  # camel values

    def copy(self) -> Caravan:
        return Caravan(self.pos, self.target, self.camels[:])


@dataclass(slots=True)
class Market:
    kind: str  # "great", "small" (also black market) or "final"
    place: int  # space where it happens
    size: int  # which caravan
    camels: list[int]  # camels to sell, in sale order
    idx: int = 0  # camel being sold
    cands: list[int] = field(default_factory=list)  # seats with the right, in order
    cidx: int = 0  # candidate deciding now
    swap: int = -1  # seat that swaps drivers with the seller after a tied sale
    sold: bool = False  # a small market found a buyer

    def copy(self) -> Market:
        return Market(
            self.kind,
            self.place,
            self.size,
            self.camels[:],
            self.idx,
            self.cands[:],
            self.cidx,
            self.swap,
            self.sold,
        )


@dataclass(slots=True, eq=False)
class State:
    n: int
    rng: GameRandom
    options: dict
    tiles: list  # action kind per space (None for cities)
    caravans: list  # index = size 1..3 (0 unused); Caravan or None
    queue: list[int]  # camels waiting in the caravanserai, first = next out
    city_gems: list[list[int]]  # [city][colour]
    bag: list[int]  # colours in the bag
    removed_seen: list[int]  # gems left in a city after a great market [colour]
    removed_unseen: list[int]  # bag gems removed at the end (never shown) [colour]
    colourless_supply: int
    hands: list[list[int]]  # [seat][good]
    fields: list[list[int]]  # laid-out cards [seat][good]
    gems: list[list[int]]  # coloured gems behind the screen [seat][colour]
    colourless: list[int]
    tokens: list[int]
    drivers: list[int]
    display: list[int]  # [good]
    deck: list[int]
    discard: list[int]
    seat: int  # whose turn it is
    actor: int  # whose decision is pending (-1 when over)
    stage: str
    draws_left: int = 0
    after_draw: str = "action"  # stage after the last draw: "action" or "end_turn"
    draw_reason: str = "turn"  # "turn", "take2" or "camels" (for observers)
    played: int = -1  # good played this turn
    moved: int = 0  # size of the caravan moved this turn
    route: list[int] = field(default_factory=list)  # possible end spaces
    market: Market | None = None
    pending: list[int] = field(default_factory=list)  # seats still to act (customs, sandstorm)
    robbed: list[int] = field(default_factory=list)
    layout: list[list[int]] = field(default_factory=list)  # [[seat, good], ...] still to ask
    ending: bool = False  # the bag ran dry: no new caravans
    over: bool = False
    stalled: bool = False  # ended because nobody could ever move again
    turn: int = 1
    ply: int = 0

    def copy(self) -> State:
        return State(
            n=self.n,
            rng=self.rng.copy(),
            options=self.options,  # never mutated after new_game
            tiles=self.tiles,  # never mutated after new_game
            caravans=[c.copy() if c is not None else None for c in self.caravans],
            queue=self.queue[:],
            city_gems=[g[:] for g in self.city_gems],
            bag=self.bag[:],
            removed_seen=self.removed_seen[:],
            removed_unseen=self.removed_unseen[:],
            colourless_supply=self.colourless_supply,
            hands=[h[:] for h in self.hands],
            fields=[f[:] for f in self.fields],
            gems=[g[:] for g in self.gems],
            colourless=self.colourless[:],
            tokens=self.tokens[:],
            drivers=self.drivers[:],
            display=self.display[:],
            deck=self.deck[:],
            discard=self.discard[:],
            seat=self.seat,
            actor=self.actor,
            stage=self.stage,
            draws_left=self.draws_left,
            after_draw=self.after_draw,
            draw_reason=self.draw_reason,
            played=self.played,
            moved=self.moved,
            route=self.route[:],
            market=self.market.copy() if self.market is not None else None,
            pending=self.pending[:],
            robbed=self.robbed[:],
            layout=[p[:] for p in self.layout],
            ending=self.ending,
            over=self.over,
            stalled=self.stalled,
            turn=self.turn,
            ply=self.ply,
        )

    def occupied(self, size: int) -> tuple[int, ...]:
        """Spaces of the caravans other than `size`, sorted (a movement cache key)."""
        _, c1, c2, c3 = self.caravans
        if size == 1:
            a, b = c2, c3
        elif size == 2:
            a, b = c1, c3
        else:
            a, b = c1, c2
        if a is None:
            return () if b is None else (b.pos,)
        if b is None:
            return (a.pos,)
        return (a.pos, b.pos) if a.pos < b.pos else (b.pos, a.pos)


_LIST_FIELDS = (
    "queue",
    "city_gems",
    "bag",
    "removed_seen",
    "removed_unseen",
    "hands",
    "fields",
    "gems",
    "colourless",
    "tokens",
    "drivers",
    "display",
    "deck",
    "discard",
    "route",
    "pending",
    "robbed",
    "layout",
)
_SCALAR_FIELDS = (
    "n",
    "colourless_supply",
    "seat",
    "actor",
    "stage",
    "draws_left",
    "after_draw",
    "draw_reason",
    "played",
    "moved",
    "ending",
    "over",
    "stalled",
    "turn",
    "ply",
)


def rng_to_json(rng: GameRandom) -> list:
    return list(rng.getstate())


def rng_from_json(data: list) -> GameRandom:
    rng = GameRandom()
    rng.setstate(data)
    return rng


def to_json(s: State) -> dict:
    out: dict = {name: getattr(s, name) for name in _SCALAR_FIELDS}
    for name in _LIST_FIELDS:
        value = getattr(s, name)
        out[name] = [v[:] if isinstance(v, list) else v for v in value]
    out["options"] = copy.deepcopy(s.options)
    out["tiles"] = list(s.tiles)
    out["caravans"] = {
        str(size): {"pos": c.pos, "target": c.target, "camels": c.camels[:]}
        for size in CARAVAN_SIZES
        if (c := s.caravans[size]) is not None
    }
    m = s.market
    out["market"] = (
        None
        if m is None
        else {
            "kind": m.kind,
            "place": m.place,
            "size": m.size,
            "camels": m.camels[:],
            "idx": m.idx,
            "cands": m.cands[:],
            "cidx": m.cidx,
            "swap": m.swap,
            "sold": m.sold,
        }
    )
    out["rng"] = rng_to_json(s.rng)
    return out


def from_json(data: dict) -> State:
    kwargs = {name: data[name] for name in _SCALAR_FIELDS}
    for name in _LIST_FIELDS:
        kwargs[name] = [v[:] if isinstance(v, list) else v for v in data[name]]
    caravans: list = [None, None, None, None]
    for size, c in data["caravans"].items():
        caravans[int(size)] = Caravan(c["pos"], c["target"], list(c["camels"]))
    m = data["market"]
    market = (
        None
        if m is None
        else Market(
            m["kind"],
            m["place"],
            m["size"],
            list(m["camels"]),
            m["idx"],
            list(m["cands"]),
            m["cidx"],
            m["swap"],
            m["sold"],
        )
    )
    return State(
        rng=rng_from_json(data["rng"]),
        options=copy.deepcopy(data["options"]),
        tiles=list(data["tiles"]),
        caravans=caravans,
        market=market,
        **kwargs,
    )
