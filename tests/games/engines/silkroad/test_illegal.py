"""Bad decisions raise IllegalAction and leave the state exactly as it was."""

import random

import pytest

from games.engines.base import IllegalAction

from .builder import ONE_STEP_TO_SAMARKAND, E, act, build

ODD_VALUES = [None, True, 1.5, "1", [], {}, -1, 0, 99, "nonsense"]


def _refused(s, action):
    before = E.to_json(s)
    with pytest.raises(IllegalAction):
        E.apply(s, action)
    assert E.to_json(s) == before


def _play_state():
    return build(
        hands={0: {"silk": 3, "tea": 1}, 1: {"tea": 5}, 2: {"tea": 4}, 3: {"tea": 4}},
        fields={1: {"silk": 1}, 2: {"tea": 2}},
        caravans={
            1: ("v07", "yspahan", [5]),  # 3 spaces from Yspahan
            2: ("v14", "samarkand", [3, 2]),  # 2 spaces from Samarkand
            3: ("v10", "samarkand", [10, 4, 1]),
        },
        queue=[6, 7, 8, 9],
        city_gems={"yspahan": {"red": 1}, "samarkand": {"blue": 2, "green": 3}},
        display=["ivory", "tea", "tea"],
        deck=["silk"] * 5,
    )


@pytest.mark.parametrize(
    "action",
    [
        "play",
        None,
        [],
        {},
        {"type": 3},
        {"type": "fly"},
        {"type": "sell"},  # not the stage
        {"type": "draw", "source": "deck"},
        {"type": "play", "good": "silk", "count": 2},  # missing key
        {"type": "play", "good": "silk", "count": 2, "caravan": 2, "extra": 1},
        {"type": "play", "good": "jade", "count": 1, "caravan": 2},
        {"type": "play", "good": "silk", "count": True, "caravan": 2},
        {"type": "play", "good": "silk", "count": 2.0, "caravan": 2},
        {"type": "play", "good": "silk", "count": 0, "caravan": 2},
        {"type": "play", "good": "silk", "count": -1, "caravan": 2},
        {"type": "play", "good": "silk", "count": 3, "caravan": 2},  # past Samarkand
        {"type": "play", "good": "silk", "count": 4, "caravan": 3},  # more than in hand
        {"type": "play", "good": "ivory", "count": 1, "caravan": 3},  # not in hand
        {"type": "play", "good": "silk", "count": 1, "caravan": 4},
        {"type": "play", "good": "silk", "count": 1, "caravan": "2"},
        {"type": "play", "good": ["silk", "tea"], "count": 2, "caravan": 3},  # goods mixed
    ],
)
def test_bad_plays(action):
    _refused(_play_state(), action)


def test_bad_decisions_in_other_stages():
    s = _play_state()
    act(s, type="play", good="silk", count=3, caravan=3)
    assert s.stage == "route"
    for bad in [
        {"type": "route", "to": "v12"},
        {"type": "route", "to": 19},
        {"type": "route"},
        {"type": "draw", "source": "deck"},
    ]:
        _refused(s, bad)
    act(s, type="route", to="v13")
    assert s.stage == "draw"
    for bad in [
        {"type": "draw", "source": "display", "good": "spice"},
        {"type": "draw", "source": "pile"},
        {"type": "draw", "source": "deck", "good": "silk"},
        {"type": "draw"},
        {"type": "draw", "source": "display"},
        {"type": "play", "good": "tea", "count": 1, "caravan": 1},
    ]:
        _refused(s, bad)


def test_bad_market_and_village_decisions():
    s = build(
        hands={0: {"tea": 1}, 1: {"tea": 6}, 2: {"tea": 1}, 3: {"tea": 1}},
        fields={1: {"silk": 3}, 2: {"silk": 3}},
        drivers=[1, 4, 3, 2],
        caravans={3: ("v12", "byzanz", [10, 4, 1])},
        queue=[2, 3, 5, 6, 7, 8, 9],
        city_gems={"byzanz": {"red": 2, "blue": 1}},
        bag={"yellow": 4},
        display=["spice"] * 3,
        deck=["spice"] * 10,
    )
    act(s, type="play", good="tea", count=1, caravan=3)
    act(s, type="draw", source="deck")
    assert s.stage == "sell" and s.actor == 1
    for bad in [
        {"type": "sell", "good": "silk"},
        {"type": "gem", "color": "red"},
        {"type": "pass"},
    ]:
        _refused(s, bad)
    act(s, type="sell")
    for bad in [
        {"type": "gem", "color": "green"},
        {"type": "gem", "color": "RED"},
        {"type": "gem"},
        {"type": "gem", "color": 1},
        {"type": "sell"},
    ]:
        _refused(s, bad)


def test_bad_customs_sandstorm_rob_bazaar_baksheesh_layout():
    # customs
    s = build(
        hands={0: {"silk": 1}, 1: {"tea": 6}},
        players=2,
        caravans={1: ("v07", "yspahan", [5])},
        city_gems={"yspahan": {"red": 1}},
        display=["spice"] * 3,
        deck=["spice"] * 5,
    )
    act(s, type="play", good="silk", count=1, caravan=1)
    act(s, type="draw", source="deck")
    assert s.stage == "customs"
    for bad in [
        {"type": "discard", "from": "field", "good": "tea"},
        {"type": "discard", "from": "hand", "good": "silk"},
        {"type": "discard", "good": "tea"},
    ]:
        _refused(s, bad)
    # robbers: the mover cannot be robbed
    s = build(
        hands={0: {"silk": 1}, 1: {"tea": 1}, 2: {"tea": 1}},
        players=3,
        fields={0: {"tea": 2}, 1: {"tea": 1}},
        caravans={1: ("v03", "byzanz", [5])},
        city_gems={"byzanz": {"red": 1}},
        display=["spice"] * 3,
        deck=["spice"] * 5,
    )
    act(s, type="play", good="silk", count=1, caravan=1)
    act(s, type="draw", source="deck")
    assert s.stage == "rob"
    for bad in [
        {"type": "rob", "victim": 0, "good": "tea"},
        {"type": "rob", "victim": 2, "good": "tea"},
        {"type": "rob", "victim": 1, "good": "silk"},
        {"type": "rob", "victim": "1", "good": "tea"},
    ]:
        _refused(s, bad)
    # bazaar
    s = build(
        hands={0: {"silk": 1}, 1: {"tea": 1}},
        players=2,
        fields={0: {"tea": 1, "ivory": 1}},
        **ONE_STEP_TO_SAMARKAND,
        display=["spice"] * 3,
        deck=["spice"] * 5,
    )
    act(s, type="play", good="silk", count=1, caravan=1)
    act(s, type="draw", source="deck")
    for bad in [
        {"type": "bazaar", "goods": ["tea", "ivory"]},
        {"type": "bazaar", "goods": ["tea", "tea", "silk"]},
        {"type": "bazaar", "goods": ["tea", "ivory", "spice"]},
        {"type": "bazaar", "goods": "tea"},
        {"type": "pass", "x": 1},
    ]:
        _refused(s, bad)
    # baksheesh
    s = build(
        players=2,
        hands={0: {"silk": 1}, 1: {"tea": 1}},
        display=["ivory", "tea"],
        deck=[],
        caravans={1: ("v17", "tashkent", [5])},
        city_gems={"tashkent": {"red": 1}},
    )
    act(s, type="play", good="silk", count=1, caravan=1)
    act(s, type="draw", source="display", good="ivory")
    for bad in [
        {"type": "baksheesh", "good": "ivory"},
        {"type": "discard", "from": "hand", "good": "ivory"},
    ]:
        _refused(s, bad)
    act(s, type="baksheesh", good="tea")
    _refused(s, {"type": "discard", "from": "hand", "good": "tea"})
    _refused(s, {"type": "discard", "from": "field", "good": "ivory"})


def test_random_junk_never_changes_a_state():
    rng = random.Random(3)
    s = E.new_game(players=3, seed=11)
    keys = ["type", "good", "count", "caravan", "source", "to", "color", "from", "victim", "goods"]
    types = [
        "play",
        "route",
        "draw",
        "sell",
        "decline",
        "gem",
        "discard",
        "rob",
        "bazaar",
        "pass",
        "baksheesh",
        "layout",
    ]
    for _ in range(300):
        legal = E.legal_actions(s)
        junk = {k: rng.choice(ODD_VALUES + types) for k in rng.sample(keys, rng.randint(1, 4))}
        if junk not in legal:
            _refused(s, junk)
        E.apply(s, rng.choice(legal))
        if E.is_over(s):
            break
