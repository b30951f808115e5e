"""The decision vocabulary: every legal decision of a stage, and validating + applying one.

Actions (JSON dicts; rows, districts, shops, cells, cards and buildings by id):
  yellow       {"type": "yellow", "count": 0..3}            buy yellow dice (1 gold each), roll
  row          {"type": "row", "row": r}                    choose a tower row
               {"type": "draw_card"}                        no usable row: the forced card
  action       {"type": "action", "kind": "supervisor" | "row" | "card"}
               2 players also {"type": "build", ...} (building uses the row)
  boost        {"type": "boost", "card": c}                 discard a card: +1 to the row's action
               {"type": "go"}                               carry out the row's action
  place        {"type": "place", "shop": id}                one cube (row action)
  move         {"type": "move", "to": cell}                 where the supervisor stops
  order        {"type": "first", "seat": p}                 whose cube goes to the caravan first
  send         {"type": "send"} | {"type": "pay"}           send the shop's cube / pay a camel
  build        {"type": "build", "building": b, "cards": [...]} | {"type": "pass"}
  end          {"type": "end"}                              end the turn
  card_place   {"type": "place", "shop": id}
  card_swap    {"type": "swap", "give": "gold" | "camels", "count": k}
  card_score_* {"type": "score", "count": k}
  and while it is the turn player's own decision in his turn (card stages aside):
               {"type": "play", "card": c}                  play a card for its effect
"""

from __future__ import annotations

from games.engines.base import IllegalAction

from . import cards, flow, souks
from .board import BOARD
from .constants import (
    B_CAMEL,
    B_CUBE,
    B_GOLD,
    B_MOVE,
    BUILD_CARD_SETS,
    BUILDING_COST,
    BUILDINGS,
    C_BOARD,
    C_CAMELS3,
    C_CARAVAN,
    C_GOLD3,
    C_NO_CAMELS,
    C_NO_GOLD,
    C_SCORE_CAMELS,
    C_SCORE_GOLD,
    C_SWAP,
    CAMEL_ROW,
    CAMEL_VP,
    CARD_INDEX,
    CARDS,
    EXTRA_CAMELS,
    EXTRA_CUBES,
    EXTRA_GOLD,
    FREE_MOVE,
    GOLD_ROW,
    PLAYABLE,
    ROWS,
    SCORE_CAMELS_MAX,
    SCORE_GOLD_MAX,
    YELLOW_DICE,
    YELLOW_DIE_COST,
)
from .scoring import add_to_caravan, building_points
from .state import State

# ---- action templates (copied when listed) ------------------------------------
_YELLOW = tuple({"type": "yellow", "count": k} for k in range(YELLOW_DICE + 1))
_ROW = tuple({"type": "row", "row": r} for r in ROWS)
_DRAW = {"type": "draw_card"}
_KINDS = (
    {"type": "action", "kind": "supervisor"},
    {"type": "action", "kind": "row"},
    {"type": "action", "kind": "card"},
)
_BOOST = tuple({"type": "boost", "card": c} for c in CARDS)
_GO = {"type": "go"}
_PLACE = tuple({"type": "place", "shop": x} for x in BOARD.shop_ids)
_MOVE = tuple({"type": "move", "to": c} for c in BOARD.cell_ids)
_FIRST = tuple({"type": "first", "seat": p} for p in range(4))
_SEND = {"type": "send"}
_PAY = {"type": "pay"}
_PASS = {"type": "pass"}
_END = {"type": "end"}
_PLAY = tuple({"type": "play", "card": c} for c in CARDS)
_BUILD = tuple(
    tuple({"type": "build", "building": b, "cards": list(cs)} for cs, _, _ in BUILD_CARD_SETS)
    for b in BUILDINGS
)
_SCORE = tuple({"type": "score", "count": k} for k in range(SCORE_GOLD_MAX + 1))

# Stages in which the turn player may play a card for its effect (his own decisions).
_PLAY_STAGES = frozenset(
    {"yellow", "row", "action", "boost", "place", "move", "order", "send", "build", "end"}
)
_copy = dict.copy


# ---- listing -------------------------------------------------------------------
def legal_actions(s: State) -> list[dict]:
    if s.over:
        return []
    cached = s._legal
    if cached is None:
        cached = s._legal = _legal(s)
    return [_copy(a) for a in cached]


def _legal(s: State) -> list[dict]:
    stage = s.stage
    p = s.actor
    out: list[dict]
    if stage == "row":
        rows = flow.usable_rows(s, p)
        out = [_ROW[r] for r in rows] if rows else [_DRAW]
    elif stage == "action":
        out = list(_KINDS)
        if s.n == 2:
            out.extend(_builds(s, p))
    elif stage == "place":
        out = [_PLACE[x] for x in souks.district_shops(s, p, s.district)]
    elif stage == "move":
        out = _moves(s, p)
    elif stage == "yellow":
        out = list(_YELLOW[: min(YELLOW_DICE, s.gold[p] // YELLOW_DIE_COST) + 1])
    elif stage == "boost":
        hand = s.hands[p]
        out = [_BOOST[k] for k, c in enumerate(hand) if c]
        out.append(_GO)
    elif stage == "send":
        out = [_SEND, _PAY] if s.camels[p] else [_SEND]
    elif stage == "build":
        out = _builds(s, p)
        out.append(_PASS)
    elif stage == "end":
        out = [_END]
    elif stage == "order":
        out = [_FIRST[q] for q in sorted({e[1] for e in s.events})]
    elif stage == "card_place":
        return [_PLACE[x] for x in souks.card_shops(s, p)]
    elif stage == "card_swap":
        return [{"type": "swap", "give": "gold", "count": k} for k in range(1, s.gold[p] + 1)] + [
            {"type": "swap", "give": "camels", "count": k} for k in range(1, s.camels[p] + 1)
        ]
    elif stage == "card_score_gold":
        return list(_SCORE[1 : min(SCORE_GOLD_MAX, s.gold[p]) + 1])
    elif stage == "card_score_camels":
        return list(_SCORE[1 : min(SCORE_CAMELS_MAX, s.camels[p]) + 1])
    else:  # pragma: no cover - every stage is listed above
        raise AssertionError(f"unknown stage {stage!r}")
    if p == s.order[s.turn] and stage in _PLAY_STAGES:
        hand = s.hands[p]
        for k in PLAYABLE:
            if hand[k] and flow.playable(s, p, k):
                out.append(_PLAY[k])
    return out


_MIN_CAMELS = min(c for c, _ in BUILDING_COST)  # the cheapest building's camels
_MOVE_LISTS: dict[tuple[int, int, int], tuple[dict, ...]] = {}
_MAX_DELTA = max(max(row) for row in BOARD.dist)


def _moves(s: State, p: int) -> list[dict]:
    pips = s.rows[s.row][0]
    budget = s.gold[p] + (FREE_MOVE if s.built[p][B_MOVE] else 0)
    key = (s.supervisor, pips, min(budget, _MAX_DELTA))
    found = _MOVE_LISTS.get(key)
    if found is None:
        found = _MOVE_LISTS[key] = tuple(
            _MOVE[d] for delta, d in BOARD.moves[s.supervisor][pips] if delta <= key[2]
        )
    return list(found)


def move_cost(s: State, p: int, dest: int) -> int:
    pips = s.rows[s.row][0]
    delta = abs(BOARD.dist[s.supervisor][dest] - pips)
    free = FREE_MOVE if s.built[p][B_MOVE] else 0
    return delta - free if delta > free else 0


def _builds(s: State, p: int) -> list[dict]:
    """Every affordable building, with each useful use of the no_camels / no_gold cards."""
    built = s.built[p]
    gold = s.gold[p]
    camels = s.camels[p]
    hand = s.hands[p]
    out: list[dict] = []
    if camels < _MIN_CAMELS and not hand[C_NO_CAMELS]:
        return out
    for b in range(6):
        if built[b]:
            continue
        cost_camels, cost_gold = BUILDING_COST[b]
        templates = _BUILD[b]
        for i, (_, wc, wg) in enumerate(BUILD_CARD_SETS):
            # a card is only offered where it waives something
            if wc and (not hand[C_NO_CAMELS] or not cost_camels):
                continue
            if wg and (not hand[C_NO_GOLD] or not cost_gold):
                continue
            if (wc or camels >= cost_camels) and (wg or gold >= cost_gold):
                out.append(templates[i])
    return out


# ---- applying --------------------------------------------------------------------
def apply(s: State, action: dict) -> State:
    """Validate `action` against the legal decisions and apply it (IllegalAction otherwise)."""
    if type(action) is not dict:
        raise IllegalAction(f"an action is a JSON object, not {type(action).__name__}")
    if s.over:
        raise IllegalAction("the game is over")
    legal = s._legal
    if legal is None:
        legal = s._legal = _legal(s)
    for a in legal:
        if a == action:
            for k, v in a.items():
                if type(action[k]) is not type(v):
                    raise IllegalAction(f"{k!r} has the wrong type in {action!r}")
            _do(s, a)
            return s
    raise IllegalAction(_why(s, action))


def apply_unchecked(s: State, action: dict) -> State:
    """Apply an action known to be legal (bots' playouts)."""
    _do(s, action)
    return s


def _why(s: State, action: dict) -> str:
    kind = action.get("type")
    seat = s.actor
    if not isinstance(kind, str):
        return f"{action!r} has no action type"
    return f"{action!r} is not a legal decision now (stage {s.stage!r}, seat {seat} to decide)"


def _do(s: State, a: dict) -> None:
    s._legal = None
    s.ply += 1
    kind = a["type"]
    p = s.actor
    if kind == "play":
        _play(s, p, CARD_INDEX[a["card"]])
        return
    stage = s.stage
    if stage == "place":
        souks.place(s, BOARD.shop_index[a["shop"]], p)
        s.remaining -= 1
        _settle_place(s)
    elif stage == "row":
        if kind == "draw_card":
            cards.draw(s, p)
            flow.after_action(s)
        else:
            s.row = ROWS.index(a["row"])
            s.rows[s.row][3] = 1
            s.stage = "action"
    elif stage == "action":
        if kind == "build":
            _build(s, p, a)
            flow.end_window(s)
            return
        what = a["kind"]
        if what == "supervisor":
            s.stage = "move"
        elif what == "row":
            if any(s.hands[p]):
                s.stage = "boost"
            else:
                _row_action(s, p)
        else:
            cards.draw(s, p)
            flow.after_action(s)
    elif stage == "yellow":
        k = a["count"]
        s.gold[p] -= k * YELLOW_DIE_COST
        flow.roll(s, k)
        s.stage = "row"
    elif stage == "move":
        dest = BOARD.cell_index[a["to"]]
        s.gold[p] -= move_cost(s, p, dest)
        s.supervisor = dest
        shops = s.shops
        s.events = [(x, shops[x]) for x in BOARD.cell_shops[dest] if shops[x] >= 0]
        _next_event(s)
    elif stage == "boost":
        if kind == "go":
            _row_action(s, p)
        else:
            cards.discard(s, p, CARD_INDEX[a["card"]])
            s.boost += 1
    elif stage == "send":
        shop, owner = s.events.pop(0)
        if kind == "send":
            souks.remove(s, shop)
        else:
            s.camels[owner] -= 1
        add_to_caravan(s, owner)
        _next_event(s)
    elif stage == "order":
        first = a["seat"]
        s.events.sort(key=lambda e: e[1] != first)
        s.stage = "send"
        s.actor = first
    elif stage == "build":
        if kind == "pass":
            flow.end_turn(s)
        else:
            _build(s, p, a)
            flow.end_window(s)
    elif stage == "end":
        flow.end_turn(s)
    elif stage == "card_place":
        souks.place(s, BOARD.shop_index[a["shop"]], p)
        _resume(s)
    elif stage == "card_swap":
        k = a["count"]
        if a["give"] == "gold":
            s.gold[p] -= k
            s.camels[p] += k
        else:
            s.camels[p] -= k
            s.gold[p] += k
        _resume(s)
    elif stage == "card_score_gold":
        k = a["count"]
        s.gold[p] -= k
        s.vp[p] += k
        _resume(s)
    elif stage == "card_score_camels":
        k = a["count"]
        s.camels[p] -= k
        s.vp[p] += CAMEL_VP * k
        _resume(s)
    else:  # pragma: no cover
        raise AssertionError(f"unknown stage {stage!r}")


def _row_action(s: State, p: int) -> None:
    r = s.row
    value = flow.row_value(s, p, r) + s.boost
    built = s.built[p]
    if r == CAMEL_ROW:
        s.camels[p] += value + (EXTRA_CAMELS if built[B_CAMEL] else 0)
        flow.after_action(s)
    elif r == GOLD_ROW:
        s.gold[p] += value + (EXTRA_GOLD if built[B_GOLD] else 0)
        flow.after_action(s)
    else:
        s.district = r - 1
        s.remaining = value + (EXTRA_CUBES if built[B_CUBE] else 0)
        s.stage = "place"
        _settle_place(s)


def _settle_place(s: State) -> None:
    """Stay in the placing stage while a cube is left and has somewhere to go."""
    p = s.order[s.turn]
    if s.remaining > 0 and souks.can_place_in_district(s, p, s.district):
        s.stage = "place"
        s.actor = p
    else:
        s.remaining = 0  # cubes that cannot be placed are not placed
        flow.after_action(s)


def _next_event(s: State) -> None:
    events = s.events
    if not events:
        flow.after_action(s)
    elif len(events) > 1 and events[0][1] != events[1][1]:
        s.stage = "order"
        s.actor = s.order[s.turn]
    else:
        s.stage = "send"
        s.actor = events[0][1]


def _build(s: State, p: int, a: dict) -> None:
    b = BUILDINGS.index(a["building"])
    used = a["cards"]
    camels, gold = BUILDING_COST[b]
    if "no_camels" in used:
        cards.discard(s, p, C_NO_CAMELS)
        camels = 0
    if "no_gold" in used:
        cards.discard(s, p, C_NO_GOLD)
        gold = 0
    s.camels[p] -= camels
    s.gold[p] -= gold
    s.built[p][b] = 1
    s.vp[p] += building_points(sum(s.built[p]))


def _play(s: State, p: int, k: int) -> None:
    cards.discard(s, p, k)
    if k == C_CAMELS3:
        s.camels[p] += 3
    elif k == C_GOLD3:
        s.gold[p] += 3
    elif k == C_CARAVAN:
        add_to_caravan(s, p)
    else:
        s.resume = s.stage
        s.stage = {
            C_BOARD: "card_place",
            C_SWAP: "card_swap",
            C_SCORE_GOLD: "card_score_gold",
            C_SCORE_CAMELS: "card_score_camels",
        }[k]


def _resume(s: State) -> None:
    s.stage = s.resume
    s.resume = ""
    if s.stage == "place":
        _settle_place(s)
