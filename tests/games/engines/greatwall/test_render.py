"""The Great Wall board: ids, action targets and labels for hand-picked actions."""

from __future__ import annotations

from games.engines.greatwall import ENGINE as E
from games.engines.greatwall import labels as L
from tests.games.engines.board_helpers import drawn_targets, find_state, has_action


def test_every_village_has_its_own_human_name():
    names = [L.village_name(v) for v in E.board.vids]
    assert len(set(names)) == len(names) == 38
    assert all(n[0].isupper() and n not in E.board.vids for n in names)
    assert L.line_name("c3/d3") == "Arvai-Mandal"


def test_a_starting_chip_is_the_chip_then_the_village():
    s = E.new_game(players=3, seed=4)
    action = E.legal_actions(s)[0]
    assert action["type"] == "setup"
    assert E.action_targets(s, action) == [f"chip:{action['chip']}", f"village:{action['village']}"]
    mine = drawn_targets(E.render_svg(E.observation(s, E.to_act(s))))
    assert f"chip:{action['chip']}" in mine
    # nobody else sees (or can click) the actor's starting chips
    others = drawn_targets(E.render_svg(E.observation(s, (E.to_act(s) + 1) % 3)))
    assert not [t for t in others if t.startswith("chip:")]


def test_moves_by_road_gate_and_wall_are_told_apart():
    def kinds(s):
        found = {("gate" in a) + 2 * ("up" in a) for a in E.legal_actions(s) if a["type"] == "move"}
        return {1, 2} <= found

    s = find_state(E, kinds, players=2, seeds=range(300))
    for action in E.legal_actions(s):
        targets = E.action_targets(s, action)
        assert targets[0] == f"village:{action['to']}"
        if "gate" in action:
            assert targets[1:] == [f"wall:{action['gate']}"]
            assert E.action_choice(s, action) == "through the gate"
        elif "up" in action:
            assert targets[1:] == [f"wall:{action['up']}", f"wall:{action['down']}"]
            assert E.action_choice(s, action) is None
        else:
            assert targets == [f"village:{action['to']}"]
            assert E.action_choice(s, action) == "by road"
        assert action["to"] not in E.describe(s, action).split()


def test_a_wall_is_placed_by_clicking_its_line():
    s = find_state(E, lambda s: s.stage == "wall", players=4)
    drawn = set(drawn_targets(E.render_svg(E.observation(s, E.to_act(s)))))
    for action in E.legal_actions(s):
        assert E.action_targets(s, action) == [f"wall:{action['line']}"]
        assert f"wall:{action['line']}" in drawn


def test_drawing_and_using_click_the_supplies():
    s = find_state(E, lambda s: s.stage == "draw", players=3)
    assert {tuple(E.action_targets(s, a)) for a in E.legal_actions(s)} <= {
        ("supply:wall",),
        ("supply:chip",),
    }
    s = find_state(E, has_action(E, lambda a: a["type"] == "use"), players=3)
    for action in E.legal_actions(s):
        if action["type"] == "use":
            assert E.action_targets(s, action) == [f"active:{action['pieces']}"]


def test_the_board_has_a_key_and_no_grid_ids_in_its_text():
    s = find_state(E, lambda s: s.stage == "move", players=4)
    svg = E.render_svg(E.observation(s, None))
    for word in ("Key", "Mongolia", "China", "Great Wall", "spur", "Chinese warrior", "Datong"):
        assert word in svg
