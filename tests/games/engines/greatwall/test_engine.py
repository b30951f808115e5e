"""The engine object: contract plumbing, options, serialisation, labels, rendering, bots."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET

import pytest

from games.engines.base import IllegalAction, InvalidOptions
from games.engines.greatwall import ENGINE as E
from games.engines.registry import ENGINES
from games.engines.testkit import check_bot_game, random_playout


def test_registered_with_its_metadata():
    assert ENGINES["greatwall"] is E
    assert (E.min_players, E.max_players) == (2, 4)
    assert E.option_schema() == {"type": "object", "properties": {}, "additionalProperties": False}
    assert E.bot_names() == ["random", "greedy", "ismcts"]


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players):
    with pytest.raises(InvalidOptions):
        E.new_game(players=players, seed=1)


def test_no_variant_options():
    assert E.validate_options(None) == {} and E.validate_options({}) == {}
    with pytest.raises(InvalidOptions):
        E.new_game(players=2, seed=1, options={"variant": "x"})


def test_the_same_seed_gives_the_same_game():
    a, actions = random_playout(E, 3, 42)
    b = E.new_game(players=3, seed=42)
    for action in actions:
        E.apply(b, action)
    assert E.to_json(a) == E.to_json(b)
    assert E.outcome(a) == E.outcome(b)
    c = E.new_game(players=3, seed=43)
    assert E.to_json(c) != E.to_json(E.new_game(players=3, seed=42))


def test_json_round_trip_and_clone_independence():
    s, _ = random_playout(E, 4, 7, max_steps=180, allow_unfinished=True)
    data = json.loads(json.dumps(E.to_json(s)))
    t = E.from_json(data)
    assert E.to_json(t) == E.to_json(s)
    assert t.rng.getstate() == s.rng.getstate()
    c = E.clone(s)
    E.apply(c, E.legal_actions(c)[0])
    assert E.to_json(s) == data


def test_outcome_lists_scores_and_ranks():
    s, _ = random_playout(E, 2, 3)
    out = E.outcome(s)
    assert set(out) >= {"scores", "ranks", "villages"}
    assert len(out["scores"]) == 2 and sorted(out["ranks"])[0] == 1


def test_describe_every_kind_of_action():
    s = E.new_game(players=2, seed=1)
    labels = {
        json.dumps(a): E.describe(s, a)
        for a in [
            {"type": "setup", "village": "c2", "chip": "mongol"},
            {"type": "scout", "village": "c2"},
            {"type": "draw", "supply": "wall"},
            {"type": "draw", "supply": "chip"},
            {"type": "use", "pieces": "walls"},
            {"type": "use", "pieces": "chips"},
            {"type": "lift"},
            {"type": "wall", "line": "c3/d3"},
            {"type": "move", "to": "d2"},
            {"type": "move", "to": "d4", "gate": "d3/d4"},
            {"type": "move", "to": "f4", "up": "d3/d4", "down": "f3/f4"},
            {"type": "lay", "chip": "herb"},
        ]
    }
    assert all(label and "unknown" not in label for label in labels.values())
    assert len(set(labels.values())) == len(labels)
    assert "unknown" in E.describe(s, {"type": "nonsense"})


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        {"type": 3},
        {"type": "draw", "supply": True},
        {"type": "use", "pieces": "lift"},
        {"type": "wall", "line": "c3/d3", "extra": 1},
        {"type": "move", "to": ["c2"]},
        {"type": "move", "to": "c2", "up": "c3/c4"},
        {"type": "move", "to": "c2", "gate": "c3/c4", "down": "c3/c4"},
        {"type": "setup", 1: 2, "village": "c2"},
    ],
)
def test_malformed_actions_are_refused(bad):
    s = E.new_game(players=2, seed=1)
    before = E.to_json(s)
    with pytest.raises(IllegalAction):
        E.apply(s, bad)
    assert E.to_json(s) == before


def test_render_svg_is_well_formed_for_every_viewer():
    s, _ = random_playout(E, 4, 5, max_steps=200, allow_unfinished=True)
    for seat in (0, 1, None):
        svg = E.render_svg(E.observation(s, seat))
        root = ET.fromstring(svg)
        assert root.tag == "div"  # a board set of pictures
        assert {child.tag for child in root} == {"{http://www.w3.org/2000/svg}svg"}
        assert svg.count("<rect") >= 38
    end, _ = random_playout(E, 2, 5)
    svg = E.render_svg(E.observation(end, None))
    assert "Game over" in svg and "points" in svg
    assert "http" not in svg.replace("http://www.w3.org/2000/svg", "")


def test_render_shows_faces_only_to_who_knows_them():
    s, _ = random_playout(E, 2, 12, max_steps=80, allow_unfinished=True)
    mine = E.render_svg(E.observation(s, 0))
    spectator = E.render_svg(E.observation(s, None))
    assert "face down" in spectator
    assert (
        "Mongol rider (red)" in mine or "Chinese warrior (red)" in mine or "peasant (red)" in mine
    )
    for face in ("Chinese warrior (", "Mongol rider (", "peasant (", "plague (", "healing herb ("):
        assert face not in spectator


@pytest.mark.parametrize("players", [2, 3])
def test_the_generic_bots_play_legal_games(players):
    check_bot_game(
        E,
        players,
        seed=players,
        bots=["greedy", "ismcts", "random"],
        params={"ismcts": {"iterations": 10, "rollout_depth": 10}, "greedy": {"samples": 1}},
    )


def test_heuristic_is_in_range_and_favours_the_better_position():
    s, _ = random_playout(E, 3, 9, max_steps=250, allow_unfinished=True)
    values = [E.heuristic(s, seat) for seat in range(3)]
    assert all(0.0 <= v <= 1.0 for v in values)
    end, _ = random_playout(E, 2, 9)
    out = E.outcome(end)
    if out["scores"][0] != out["scores"][1]:
        best = out["ranks"].index(1)
        assert E.heuristic(end, best) > 0.5 > E.heuristic(end, 1 - best)


def test_apply_unchecked_agrees_with_apply():
    rng = random.Random(4)
    a = E.new_game(players=3, seed=21)
    b = E.new_game(players=3, seed=21)
    while not a.over:
        action = rng.choice(E.legal_actions(a))
        E.apply(a, action)
        E.apply_unchecked(b, action)
    assert E.to_json(a) == E.to_json(b)


def test_ismcts_gets_engine_defaults_that_callers_can_override():
    bot = E.make_bot("ismcts", seed=1, iterations=5)
    assert bot.rollout_depth == 0 and bot.exploration == 0.1
    bot = E.make_bot("ismcts", seed=1, iterations=5, rollout_depth=None, exploration=0.7)
    assert bot.rollout_depth is None and bot.exploration == 0.7
    s = E.new_game(players=2, seed=3)
    assert bot.choose(s, 0) in E.legal_actions(s)
