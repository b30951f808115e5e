"""The engine contract around the rules: options, observation, determinize, JSON, bots, SVG."""

import json
import random
import xml.dom.minidom

import pytest

from games.engines.base import InvalidOptions
from games.engines.testkit import check_bot_game, check_contract, random_playout
from games.engines.yspahan import ENGINE as E
from games.engines.yspahan.constants import CARDS
from tests.games.engines.yspahan.builder import act, build


def state_after(players: int, seed: int, plies: int):
    rng = random.Random(seed)
    s = E.new_game(players=players, seed=seed)
    for _ in range(plies):
        if E.is_over(s):
            break
        s = E.apply(s, rng.choice(E.legal_actions(s)))
    return s


def test_registered_with_the_platform_registry():
    from games.engines.registry import ENGINES

    assert ENGINES["yspahan"] is E
    assert (E.slug, E.min_players, E.max_players) == ("yspahan", 2, 4)


def test_options_are_an_empty_object():
    schema = E.option_schema()
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert E.validate_options(None) == {} and E.validate_options({}) == {}
    with pytest.raises(InvalidOptions):
        E.validate_options({"variant": "x"})
    with pytest.raises(InvalidOptions):
        E.new_game(players=5, seed=1)
    with pytest.raises(InvalidOptions):
        E.new_game(players=1, seed=1)


def test_same_seed_same_game_other_seed_other_game():
    a, log_a = random_playout(E, 3, 7)
    b, log_b = random_playout(E, 3, 7)
    c, _ = random_playout(E, 3, 8)
    assert log_a == log_b and E.to_json(a) == E.to_json(b)
    assert E.to_json(a) != E.to_json(c)


def test_observation_hides_other_hands_the_deck_order_and_the_generator():
    s = build(hands={0: ["3_gold", "no_gold"], 1: ["score_camels"]})
    obs = E.observation(s, 0)
    assert obs["players"][0]["hand"] == {"3_gold": 1, "no_gold": 1}
    assert "hand" not in obs["players"][1] and obs["players"][1]["cards"] == 1
    assert obs["deck"] == len(s.deck)
    text = json.dumps(obs)
    assert s.rng.to_json() not in text and "rng" not in obs
    spectator = E.observation(s, None)
    assert all("hand" not in p for p in spectator["players"]) and "legal" not in spectator
    assert obs["legal"] == E.legal_actions(s)
    assert "legal" not in E.observation(s, 1)


def test_determinize_resamples_hidden_cards_and_reseeds_the_dice():
    s = build(hands={0: ["3_gold"], 1: ["score_camels", "no_gold"], 2: ["3_camels"]})
    s.stage = "yellow"
    s._legal = None
    rng = random.Random(4)
    hands, rolls = set(), set()
    for _ in range(30):
        w = E.determinize(s, 0, rng)
        assert E.observation(w, 0) == E.observation(s, 0)
        assert w.hands[0] == s.hands[0]
        assert [sum(h) for h in w.hands] == [sum(h) for h in s.hands]
        hands.add(tuple(w.hands[1]))
        E.apply(w, {"type": "yellow", "count": 0})
        rolls.add(tuple(tuple(r) for r in w.rows))
    assert len(hands) > 3 and len(rolls) > 10
    # the original is untouched
    assert s.stage == "yellow" and s.hands[1][CARDS.index("score_camels")] == 1


def test_json_round_trip_and_independent_clone():
    s = state_after(4, 11, 250)
    data = E.to_json(s)
    restored = E.from_json(json.loads(json.dumps(data)))
    assert E.to_json(restored) == data
    assert E.legal_actions(restored) == E.legal_actions(s)
    c = E.clone(s)
    E.apply(c, E.legal_actions(c)[-1])
    assert E.to_json(s) == data


@pytest.mark.parametrize("players", [2, 3, 4])
def test_contract_at_many_states(players):
    rng = random.Random(players)
    for plies in (0, 1, 2, 5, 40, 130, 260):
        check_contract(E, state_after(players, plies, plies), rng=rng)


def test_describe_every_action_of_a_game():
    s = E.new_game(players=4, seed=2)
    rng = random.Random(2)
    seen = set()
    while not E.is_over(s):
        legal = E.legal_actions(s)
        for a in legal:
            label = E.describe(s, a)
            assert isinstance(label, str) and label.strip()
            seen.add(a["type"])
        s = E.apply(s, rng.choice(legal))
    assert {"yellow", "row", "action", "place", "move", "build", "pass", "play"} <= seen


def test_render_svg_is_self_contained_svg():
    s = build(
        hands={0: ["3_gold"]},
        shops={"bag-A-0": 0, "vase-C-1": 2},
        caravan=[1, 2, 3],
        built={1: ["extra_card"]},
        supervisor="s13",
    )
    for seat in (0, 1, None):
        svg = E.render_svg(E.observation(s, seat))
        doc = xml.dom.minidom.parseString(svg)
        assert doc.documentElement.tagName == "div"  # a board set of pictures
        assert {c.tagName for c in doc.documentElement.childNodes} == {"svg"}
        assert "http" not in svg.replace("http://www.w3.org/2000/svg", "")
        assert "<script" not in svg
    assert "3_gold" in E.render_svg(E.observation(s, 0))
    assert "3_gold" not in E.render_svg(E.observation(s, 1))
    over = state_after(2, 3, 10_000)
    assert E.is_over(over) and "game over" in E.render_svg(E.observation(over, None))
    before_roll = build(rolled=False)
    assert "not rolled" in E.render_svg(E.observation(before_roll, 0))


def test_heuristic_is_in_range_and_prefers_points():
    s = state_after(3, 5, 200)
    for seat in range(3):
        assert 0.0 <= E.heuristic(s, seat) <= 1.0
    a = build(players=2, vp=[20, 0])
    b = build(players=2, vp=[0, 20])
    assert E.heuristic(a, 0) > 0.5 > E.heuristic(b, 0)
    over = state_after(2, 3, 10_000)
    ranks = E.outcome(over)["ranks"]
    assert E.heuristic(over, 0) == (
        1.0 if ranks[0] < ranks[1] else 0.0 if ranks[0] > ranks[1] else 0.5
    )


@pytest.mark.parametrize("players", [2, 4])
def test_bots_play_legal_games(players):
    check_bot_game(
        E,
        players,
        seed=players,
        bots=["greedy", "random", "ismcts"],
        params={"ismcts": {"iterations": 8, "rollout_depth": 10}, "greedy": {"samples": 1}},
    )


def test_act_helper_rejects_unlisted_actions():
    s = build()
    with pytest.raises(AssertionError):
        act(s, type="row", row="nowhere")


def test_ismcts_from_the_engine_cuts_playouts_by_default():
    from games.engines.yspahan.engine import ISMCTS_ROLLOUT_DEPTH

    assert E.make_bot("ismcts", seed=1).rollout_depth == ISMCTS_ROLLOUT_DEPTH
    assert E.make_bot("ismcts", seed=1, rollout_depth=None).rollout_depth is None
    assert E.make_bot("greedy", seed=1).name == "greedy"
