"""The Yspahan board: ids, action targets and labels for hand-picked actions."""

from __future__ import annotations

from games.engines.yspahan import ENGINE as E
from games.engines.yspahan import labels as L
from games.engines.yspahan.board import BOARD
from tests.games.engines.board_helpers import drawn_targets, find_state, has_action


def test_street_squares_are_named_by_street_and_distance_from_the_centre():
    assert L.square_name("s10") == "the centre"
    assert L.square_name("s9") == "West street 1"
    assert L.square_name("s0") == "West street 10"
    assert L.square_name("s23") == "South street 1"
    assert L.square_name("s26") == "South street 4"
    assert L.square_name("s18") == "North street 4"
    assert L.square_name("s17") == "East street 7"
    assert L.square_target("s26") == "square:south-4"
    assert L.square_target("s10") == "square:centre"
    assert len({L.square_target(c) for c in BOARD.cell_ids}) == 29  # one id per square


def test_moving_the_supervisor_clicks_a_named_square():
    s = find_state(E, lambda s: s.stage == "move", players=3)
    drawn = set(drawn_targets(E.render_svg(E.observation(s, E.to_act(s)))))
    for action in E.legal_actions(s):
        (target,) = E.action_targets(s, action)
        assert target == L.square_target(action["to"]) and target in drawn
        text = E.describe(s, action)
        assert text.startswith("Move the supervisor to ") and action["to"] not in text.split()


def test_placing_clicks_the_shop_and_names_the_souk():
    s = find_state(E, lambda s: s.stage == "place", players=4)
    action = E.legal_actions(s)[0]
    assert E.action_targets(s, action) == [f"shop:{action['shop']}"]
    souk = action["shop"].rsplit("-", 1)[0]
    district, letter = souk.split("-")
    assert E.describe(s, action) == f"Place a cube in {district.title()} souk {letter}"


def test_a_row_is_clicked_in_the_tower():
    s = find_state(E, lambda s: s.stage == "row", players=2)
    drawn = set(drawn_targets(E.render_svg(E.observation(s, E.to_act(s)))))
    for action in E.legal_actions(s):
        if action["type"] == "row":
            assert E.action_targets(s, action) == [f"row:{action['row']}"]
            assert f"row:{action['row']}" in drawn


def test_a_card_that_can_boost_or_be_played_is_told_apart_by_the_choice():
    def both(s):
        kinds = {(a["type"], a.get("card")) for a in E.legal_actions(s)}
        return any(("play", c) in kinds for t, c in kinds if t == "boost")

    s = find_state(E, both, players=3, seeds=range(200))
    by_card: dict = {}
    for action in E.legal_actions(s):
        if action["type"] in ("boost", "play"):
            by_card.setdefault(action["card"], []).append(action)
    card, actions = next((c, a) for c, a in by_card.items() if len(a) == 2)
    assert {tuple(E.action_targets(s, a)) for a in actions} == {(f"hand:{card}",)}
    assert {E.action_choice(s, a) for a in actions} == {"discard for +1", "play it"}
    assert f"hand:{card}" in drawn_targets(E.render_svg(E.observation(s, E.to_act(s))))


def test_building_with_cards_is_the_building_then_a_choice():
    s = find_state(E, has_action(E, lambda a: a["type"] == "build"), players=3, seeds=range(200))
    for action in E.legal_actions(s):
        if action["type"] != "build":
            continue
        assert E.action_targets(s, action) == [f"building:{action['building']}"]
        choice = E.action_choice(s, action)
        assert (choice is None) == (not action["cards"])
    drawn = drawn_targets(E.render_svg(E.observation(s, E.to_act(s))))
    assert len([t for t in drawn if t.startswith("building:")]) == 6  # only the actor's


def test_card_names_are_read_not_ids():
    assert E.describe(E.new_game(players=2, seed=1), {"type": "boost", "card": "3_gold"}) == (
        "Discard “take 3 gold” for +1"
    )
    assert "swap_camels_gold" not in E.describe(
        E.new_game(players=2, seed=1), {"type": "play", "card": "swap_camels_gold"}
    )


def test_the_board_names_districts_souks_and_caravan_sections():
    s = E.new_game(players=4, seed=2)
    svg = E.render_svg(E.observation(s, 0))
    for word in ("Bag district", "Vase district", "A: 8 pts", "section 3", "3 pt each", "Key"):
        assert word in svg
    for word in ("West street", "North street", "East street", "South street"):
        assert word in svg
