"""The decision vocabulary: every legal decision of a stage, and validating + applying one.

Actions (JSON dicts; goods and colours by name, seats 0-based):
  play      {"type": "play", "good": g, "count": n, "caravan": 1|2|3}
  route     {"type": "route", "to": space_id}
  draw      {"type": "draw", "source": "display", "good": g} | {"type": "draw", "source": "deck"}
  sell      {"type": "sell"} | {"type": "decline"}
  gem       {"type": "gem", "color": colour}
  customs / baksheesh_discard   {"type": "discard", "from": "hand", "good": g}
  sandstorm {"type": "discard", "from": "field", "good": g}
  rob       {"type": "rob", "victim": seat, "good": g}
  bazaar    {"type": "bazaar", "goods": [g1, g2, g3]} | {"type": "pass"}
  baksheesh {"type": "baksheesh", "good": g}
  layout    {"type": "layout", "good": g, "count": n}
"""

from __future__ import annotations

from typing import Any

from games.engines.base import IllegalAction

from . import endgame, flow, market, village
from .board import Board
from .cards import begin_draws, deck_available, draw_deck
from .constants import CARDS_PER_GOOD, COLOUR_INDEX, COLOURS, GOOD_INDEX, GOODS
from .state import State

_SELL = {"type": "sell"}
_DECLINE = {"type": "decline"}
_PASS = {"type": "pass"}
_DECK = {"type": "draw", "source": "deck"}


def legal_actions(s: State, board: Board) -> list[dict]:
    stage = s.stage
    if stage == "play":
        return _plays(s, board)
    if stage == "draw":
        out = [
            {"type": "draw", "source": "display", "good": GOODS[g]}
            for g, k in enumerate(s.display)
            if k
        ]
        if deck_available(s):
            out.append(dict(_DECK))
        return out
    if stage == "sell":
        return [dict(_SELL), dict(_DECLINE)]
    if stage == "gem":
        return [{"type": "gem", "color": COLOURS[c]} for c in market.gem_choices(s)]
    if stage == "route":
        return [{"type": "route", "to": board.ids[x]} for x in s.route]
    if stage in ("customs", "baksheesh_discard"):
        hand = s.hands[s.actor]
        return [{"type": "discard", "from": "hand", "good": GOODS[g]} for g in range(5) if hand[g]]
    if stage == "sandstorm":
        field = s.fields[s.actor]
        return [
            {"type": "discard", "from": "field", "good": GOODS[g]} for g in range(5) if field[g]
        ]
    if stage == "rob":
        return [
            {"type": "rob", "victim": v, "good": GOODS[g]}
            for v in village.victims(s)
            for g in range(5)
            if s.fields[v][g]
        ]
    if stage == "bazaar":
        out = [
            {"type": "bazaar", "goods": [GOODS[g] for g in trio]}
            for trio in village.bazaar_choices(s)
        ]
        out.append(dict(_PASS))
        return out
    if stage == "baksheesh":
        return [{"type": "baksheesh", "good": GOODS[g]} for g, k in enumerate(s.display) if k]
    if stage == "layout":
        seat, good = s.layout[0]
        return [
            {"type": "layout", "good": GOODS[good], "count": k}
            for k in range(s.hands[seat][good] + 1)
        ]
    return []


# play decisions are copied from templates (cheaper than building each dict):
# _PLAY_RUNS[size, good, m] = the plays of 1..m cards of that good on that caravan
_PLAY_RUNS = {
    (size, g, m): tuple(
        {"type": "play", "good": GOODS[g], "count": k, "caravan": size} for k in range(1, m + 1)
    )
    for size in (1, 2, 3)
    for g in range(5)
    for m in range(CARDS_PER_GOOD + 1)
}
_copy = dict.copy


def _plays(s: State, board: Board) -> list[dict]:
    hand = s.hands[s.seat]
    goods = [(g, h) for g, h in enumerate(hand) if h]
    out: list[dict] = []
    if not goods:
        return out
    for size in (1, 2, 3):
        caravan = s.caravans[size]
        if caravan is None:
            continue
        most = board.most_steps(caravan.pos, caravan.target, s.occupied(size))
        for g, h in goods:
            out.extend(map(_copy, _PLAY_RUNS[size, g, h if h < most else most]))
    return out


# ---- validation helpers ---------------------------------------------------
_KEYSETS: dict[tuple[str, ...], frozenset] = {}


def _keys(a: dict, *keys: str) -> None:
    want = _KEYSETS.get(keys)
    if want is None:
        want = _KEYSETS[keys] = frozenset(("type",) + keys)
    if a.keys() != want:
        names = ", ".join(("type",) + keys)
        raise IllegalAction(f"a {a['type']!r} decision has exactly the keys: {names}")


def _good(a: dict, key: str = "good") -> int:
    g = a[key]
    if not isinstance(g, str) or g not in GOOD_INDEX:
        raise IllegalAction(f"{key!r} must be one of {', '.join(GOODS)}")
    return GOOD_INDEX[g]


def _int(a: dict, key: str) -> int:
    v = a[key]
    if type(v) is not int:
        raise IllegalAction(f"{key!r} must be a whole number")
    return v


# ---- one handler per (stage, action type): validate fully, then change the state
def _do_play(s: State, board: Board, a: dict) -> None:
    _keys(a, "good", "count", "caravan")
    good, count, size = _good(a), _int(a, "count"), _int(a, "caravan")
    if size not in (1, 2, 3) or s.caravans[size] is None:
        raise IllegalAction(f"there is no {size}-camel caravan on the board")
    if count < 1:
        raise IllegalAction("play at least one card")
    if s.hands[s.seat][good] < count:
        raise IllegalAction(f"you hold fewer than {count} {GOODS[good]} cards")
    caravan = s.caravans[size]
    most = board.most_steps(caravan.pos, caravan.target, s.occupied(size))
    if count > most:
        raise IllegalAction(
            f"the {size}-camel caravan can move at most {most} spaces without passing its target"
        )
    flow.play(s, board, good, count, size)


def _do_route(s: State, board: Board, a: dict) -> None:
    _keys(a, "to")
    dest = board.index.get(a["to"]) if isinstance(a["to"], str) else None
    if dest is None or dest not in s.route:
        options = ", ".join(board.ids[x] for x in s.route)
        raise IllegalAction(f"the move can end at {options}")
    flow.move(s, dest)


def _do_draw(s: State, board: Board, a: dict) -> None:
    source = a.get("source")
    if source == "display":
        _keys(a, "source", "good")
        good = _good(a)
        if not s.display[good]:
            raise IllegalAction(f"no {GOODS[good]} card in the display")
        s.display[good] -= 1
    elif source == "deck":
        _keys(a, "source")
        if not deck_available(s):
            raise IllegalAction("the deck and the discard pile are empty")
        good = draw_deck(s)
    else:
        raise IllegalAction("'source' must be 'display' or 'deck'")
    s.hands[s.seat][good] += 1
    s.draws_left -= 1
    begin_draws(s)


def _do_sell(s: State, board: Board, a: dict) -> None:
    _keys(a)
    market.sell(s)


def _do_decline(s: State, board: Board, a: dict) -> None:
    _keys(a)
    market.decline(s)


def _do_gem(s: State, board: Board, a: dict) -> None:
    _keys(a, "color")
    c = a["color"]
    colour = COLOUR_INDEX.get(c) if isinstance(c, str) else None
    if colour is None or not s.city_gems[s.market.place][colour]:
        raise IllegalAction(f"no {c!r} gem in {board.names[s.market.place]}")
    market.take_gem(s, colour)


def _discard_from(a: dict, where: str) -> int:
    _keys(a, "from", "good")
    if a["from"] != where:
        raise IllegalAction(f"this discard is from the {where}")
    return _good(a)


def _do_discard(s: State, board: Board, a: dict) -> None:
    stage = s.stage
    if stage == "sandstorm":
        good = _discard_from(a, "field")
        if not s.fields[s.actor][good]:
            raise IllegalAction(f"no {GOODS[good]} card laid out")
        village.sandstorm_discard(s, good)
        return
    good = _discard_from(a, "hand")
    if not s.hands[s.actor][good]:
        raise IllegalAction(f"no {GOODS[good]} card in hand")
    if stage == "customs":
        village.customs_discard(s, good)
    else:
        village.baksheesh_discard(s, good)


def _do_rob(s: State, board: Board, a: dict) -> None:
    _keys(a, "victim", "good")
    victim, good = _int(a, "victim"), _good(a)
    if victim not in village.victims(s):
        raise IllegalAction(f"seat {victim} cannot be robbed now")
    if not s.fields[victim][good]:
        raise IllegalAction(f"seat {victim} has no {GOODS[good]} laid out")
    village.rob(s, victim, good)


def _do_bazaar(s: State, board: Board, a: dict) -> None:
    _keys(a, "goods")
    goods = a["goods"]
    if not isinstance(goods, list) or len(goods) != 3:
        raise IllegalAction("give exactly three goods")
    idx = tuple(sorted(_good({"g": g}, "g") for g in goods))
    if len(set(idx)) != 3:
        raise IllegalAction("the three goods must be different")
    if any(not s.fields[s.seat][g] for g in idx):
        raise IllegalAction("you can only give goods you have laid out")
    village.bazaar(s, idx)


def _do_pass(s: State, board: Board, a: dict) -> None:
    _keys(a)
    s.stage = "end_turn"


def _do_baksheesh(s: State, board: Board, a: dict) -> None:
    _keys(a, "good")
    good = _good(a)
    if not s.display[good]:
        raise IllegalAction(f"no {GOODS[good]} card in the display")
    village.baksheesh_take(s, good)


def _do_layout(s: State, board: Board, a: dict) -> None:
    _keys(a, "good", "count")
    good, count = _good(a), _int(a, "count")
    seat, asked = s.layout[0]
    if good != asked:
        raise IllegalAction(f"the question is about {GOODS[asked]}")
    if not 0 <= count <= s.hands[seat][good]:
        raise IllegalAction(f"lay out between 0 and {s.hands[seat][good]} cards")
    endgame.lay_out(s, count)


HANDLERS = {
    ("play", "play"): _do_play,
    ("route", "route"): _do_route,
    ("draw", "draw"): _do_draw,
    ("sell", "sell"): _do_sell,
    ("sell", "decline"): _do_decline,
    ("gem", "gem"): _do_gem,
    ("customs", "discard"): _do_discard,
    ("sandstorm", "discard"): _do_discard,
    ("baksheesh_discard", "discard"): _do_discard,
    ("rob", "rob"): _do_rob,
    ("bazaar", "bazaar"): _do_bazaar,
    ("bazaar", "pass"): _do_pass,
    ("baksheesh", "baksheesh"): _do_baksheesh,
    ("layout", "layout"): _do_layout,
}


def apply(s: State, board: Board, a: Any) -> State:
    if s.over:
        raise IllegalAction("the game is over")
    if not isinstance(a, dict) or not isinstance(a.get("type"), str):
        raise IllegalAction("an action is a JSON object with a 'type'")
    handler = HANDLERS.get((s.stage, a["type"]))
    if handler is None:
        raise IllegalAction(f"{a['type']!r} is not a possible decision now (awaiting {s.stage})")
    handler(s, board, a)  # checks everything before it changes anything
    s.ply += 1
    flow.advance(s, board)
    return s
