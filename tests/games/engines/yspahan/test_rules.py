"""Scenario tests of every rule, from constructed states."""

import pytest

from games.engines.base import IllegalAction
from games.engines.yspahan.board import BOARD
from games.engines.yspahan.flow import day_order, tower_rows, usable_rows
from tests.games.engines.yspahan.builder import E, act, build, dice, hand, owners, types

DEFAULT_DICE = [1, 2, 3, 4, 5, 6, 6, 6, 6]  # camels 1, bag 2, barrel 3, chest 4, vase 5, gold 6


def row_ids(s):
    return [a["row"] for a in E.legal_actions(s) if a["type"] == "row"]


def shop_choices(s):
    return sorted(a["shop"] for a in E.legal_actions(s) if a["type"] == "place")


def destinations(s):
    return sorted((a["to"] for a in E.legal_actions(s) if a["type"] == "move"), key=_cell)


def _cell(c):
    return int(c[1:])


# ---- the roll and the tower ----------------------------------------------------
def test_groups_fill_rows_from_the_bottom_and_the_highest_goes_to_the_top():
    rows = tower_rows(dice([1, 2, 3, 5, 6, 6, 6, 6, 6]), dice([]))
    assert [r[0] for r in rows] == [1, 2, 3, 5, 0, 6]
    assert [r[1] for r in rows] == [1, 1, 1, 1, 0, 5]
    rows = tower_rows(dice([2, 2, 4, 4, 4, 5, 5, 5, 5]), dice([]))
    assert [r[0] for r in rows] == [2, 4, 0, 0, 0, 5]


def test_a_single_group_goes_to_the_top_row():
    rows = tower_rows(dice([3] * 9), dice([3]))
    assert [r[0] for r in rows] == [0, 0, 0, 0, 0, 3]
    assert rows[5][1:3] == [9, 1]


def test_yellow_dice_join_the_groups_of_their_value():
    rows = tower_rows(dice([1, 1, 2, 2, 3, 3, 4, 4, 5]), dice([5, 6, 6]))
    assert [r[0] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert rows[4][1:3] == [1, 1]
    assert rows[5][1:3] == [0, 2]


def test_new_game_setup():
    s = E.new_game(players=4, seed=1)
    assert s.gold == [2, 2, 2, 2] and s.camels == [0] * 4 and s.vp == [0] * 4
    assert len(s.deck) == 18 and sorted(s.deck) == sorted(list(range(9)) * 2)
    assert BOARD.cell_ids[s.supervisor] == "s10"
    assert (s.week, s.day, s.start, s.stage, s.actor) == (1, 1, 0, "yellow", 0)
    assert E.legal_actions(s) == [{"type": "yellow", "count": k} for k in range(3)]
    assert s.capacity == 12


def test_buying_yellow_dice_costs_gold_and_rolls_them():
    s = build(players=3, rolled=False, gold=[5, 2, 2])
    assert [a["count"] for a in E.legal_actions(s)] == [0, 1, 2, 3]
    act(s, type="yellow", count=3)
    assert s.gold[0] == 2 and s.yellow == 3
    assert sum(r[2] for r in s.rows) == 3 and sum(r[1] for r in s.rows) == 9
    assert s.stage == "row" and s.actor == 0


def test_yellow_dice_are_limited_by_gold():
    s = build(players=3, rolled=False, gold=[1, 2, 2])
    assert [a["count"] for a in E.legal_actions(s)] == [0, 1]


def test_the_start_player_may_play_cards_before_the_roll():
    s = build(players=3, rolled=False, gold=[0, 2, 2], hands={0: ["3_gold"]})
    assert E.legal_actions(s) == [
        {"type": "yellow", "count": 0},
        {"type": "play", "card": "3_gold"},
    ]
    act(s, type="play", card="3_gold")
    assert s.gold[0] == 3 and s.stage == "yellow"
    assert [a["count"] for a in E.legal_actions(s)] == [0, 1, 2, 3]


def test_yellow_only_rows_are_for_the_start_player_and_only_he_counts_yellow_dice():
    s = build(players=3, white=[1, 1, 2, 2, 3, 3, 4, 4, 6], yellow=[5, 6])
    assert row_ids(s) == ["camels", "bag", "barrel", "chest", "vase", "gold"]
    s2 = build(players=3, white=[1, 1, 2, 2, 3, 3, 4, 4, 6], yellow=[5, 6], turn=1)
    assert s2.actor == 1
    assert row_ids(s2) == ["camels", "bag", "barrel", "chest", "gold"]  # vase is yellow only
    # the gold row: 1 white + 1 yellow; the start player takes 2 gold, another player 1
    act(s, type="row", row="gold")
    act(s, type="action", kind="row")
    assert s.gold[0] == 4
    act(s2, type="row", row="gold")
    act(s2, type="action", kind="row")
    assert s2.gold[1] == 3


def test_two_players_the_start_player_keeps_the_yellow_dice_for_his_second_choice():
    s = build(players=2, white=[1, 1, 2, 2, 3, 3, 4, 4], yellow=[6], turn=2)
    assert s.order == [0, 1, 0] and s.actor == 0
    assert "gold" in row_ids(s)
    s1 = build(players=2, white=[1, 1, 2, 2, 3, 3, 4, 4], yellow=[6], turn=1)
    assert "gold" not in row_ids(s1)


def test_taken_and_empty_rows_cannot_be_chosen():
    s = build(white=[1, 2, 2, 3, 3, 5, 5, 6, 6], taken=["bag", "gold"], turn=2)
    # camels 1, bag 2 (taken), barrel 3, chest 5, vase empty, gold 6 (taken)
    assert row_ids(s) == ["camels", "barrel", "chest"]


def test_no_usable_row_forces_a_card():
    s = build(white=[1, 1, 1, 1, 6, 6, 6, 6, 6], taken=["camels", "gold"], turn=2)
    assert E.legal_actions(s) == [{"type": "draw_card"}]
    top = s.deck[-1]
    act(s, type="draw_card")
    assert s.hands[2][top] == 1 and s.stage == "build" and s.actor == 2


def test_two_players_use_eight_dice_and_three_choices_a_day():
    s = E.new_game(players=2, seed=3)
    assert s.order == [0, 1, 0] and s.capacity == 6
    act(s, type="yellow", count=0)
    assert sum(r[1] for r in s.rows) == 8


# ---- the three actions ---------------------------------------------------------
def test_after_choosing_a_row_the_player_chooses_the_action():
    s = build()
    act(s, type="row", row="chest")
    assert E.legal_actions(s) == [
        {"type": "action", "kind": "supervisor"},
        {"type": "action", "kind": "row"},
        {"type": "action", "kind": "card"},
    ]
    assert s.rows[3][3] == 1  # the row is used whatever the action


def test_camel_row_and_building_1():
    s = build(white=[1, 1, 1, 2, 3, 4, 5, 6, 6], built={0: ["extra_camel"]})
    act(s, type="row", row="camels")
    act(s, type="action", kind="row")
    assert s.camels[0] == 4
    assert s.stage == "build"


def test_gold_row_and_building_2():
    s = build(built={0: ["extra_gold"]})
    act(s, type="row", row="gold")
    act(s, type="action", kind="row")
    assert s.gold[0] == 2 + 4 + 2


def test_cards_add_one_each_to_the_rows_action():
    s = build(hands={0: ["no_gold", "score_gold"]})
    act(s, type="row", row="gold")
    act(s, type="action", kind="row")
    assert s.stage == "boost"
    assert {"type": "boost", "card": "no_gold"} in E.legal_actions(s)
    act(s, type="boost", card="no_gold")
    act(s, type="boost", card="score_gold")
    assert E.legal_actions(s)[0] == {"type": "go"}
    act(s, type="go")
    assert s.gold[0] == 2 + 4 + 2 and hand(s, 0) == {}
    assert s.discard[8] == 1 and s.discard[5] == 1 and sum(s.discard) == 2


def test_card_action_draws_the_top_card():
    s = build(deck=["3_gold", "no_camels"])
    act(s, type="row", row="bag")
    act(s, type="action", kind="card")
    assert hand(s, 0) == {"no_camels": 1} and len(s.deck) == 1


def test_an_empty_deck_is_rebuilt_from_the_played_cards():
    s = build(deck=[], discard=["3_gold", "3_gold", "no_gold"])
    act(s, type="row", row="bag")
    act(s, type="action", kind="card")
    assert sum(s.hands[0]) == 1 and len(s.deck) == 2 and s.discard == [0] * 9


def test_no_card_anywhere_draws_nothing():
    s = build(deck=[])
    act(s, type="row", row="bag")
    act(s, type="action", kind="card")
    assert sum(s.hands[0]) == 0 and s.stage == "build"


# ---- cubes in the souks ----------------------------------------------------------
BAG5 = [1, 2, 2, 2, 2, 2, 3, 4, 6]  # the bag row has five 2s


def test_placing_cubes_fills_a_started_souk_first_and_avoids_other_players_souks():
    s = build(white=BAG5, shops={"bag-B-0": 0, "bag-B-1": 0, "bag-C-0": 1})
    act(s, type="row", row="bag")
    act(s, type="action", kind="row")
    assert s.stage == "place" and s.remaining == 5
    assert shop_choices(s) == ["bag-B-2", "bag-B-3", "bag-B-4"]
    for shop in ("bag-B-3", "bag-B-2", "bag-B-4"):
        act(s, type="place", shop=shop)
    # bag-B is full: a new souk may be started, but not bag-C (seat 1's)
    choices = shop_choices(s)
    assert all(c.startswith(("bag-A", "bag-D")) for c in choices) and len(choices) == 10
    act(s, type="place", shop="bag-D-2")
    assert shop_choices(s) == ["bag-D-0", "bag-D-1", "bag-D-3"]
    act(s, type="place", shop="bag-D-0")
    assert s.stage == "build"
    assert sum(1 for p in s.shops if p == 0) == 7


def test_cubes_with_nowhere_to_go_are_lost():
    s = build(
        white=[1, 2, 3, 4, 5, 5, 5, 6, 6],
        shops={"vase-A-0": 1, "vase-B-0": 1, "vase-C-0": 2},
    )
    act(s, type="row", row="vase")
    act(s, type="action", kind="row")
    assert s.stage == "build" and owners(s) == {"vase-A-0": 1, "vase-B-0": 1, "vase-C-0": 2}


def test_placing_stops_when_the_district_fills_up():
    s = build(white=[1, 2, 3, 4, 5, 5, 5, 6, 6], shops={"vase-B-0": 1, "vase-C-0": 2})
    act(s, type="row", row="vase")
    act(s, type="action", kind="row")
    assert shop_choices(s) == ["vase-A-0"]
    act(s, type="place", shop="vase-A-0")
    assert s.stage == "build"


def test_building_6_places_one_more_cube():
    s = build(white=BAG5, built={0: ["extra_cube"]})
    act(s, type="row", row="bag")
    act(s, type="action", kind="row")
    assert s.remaining == 6


def test_own_full_souk_is_not_a_started_souk():
    s = build(white=BAG5, shops={"bag-C-0": 0, "bag-C-1": 0, "bag-C-2": 0})
    act(s, type="row", row="bag")
    act(s, type="action", kind="row")
    assert len(shop_choices(s)) == 6 + 5 + 4


# ---- the supervisor ------------------------------------------------------------------
def test_the_supervisor_moves_exactly_the_rows_value_without_gold():
    s = build(gold=[0, 0, 0, 0])
    act(s, type="row", row="bag")  # two pips
    act(s, type="action", kind="supervisor")
    assert destinations(s) == ["s8", "s12", "s20", "s24"]


def test_gold_adjusts_the_distance_one_step_each_way_per_gold():
    s = build(gold=[1, 0, 0, 0])
    act(s, type="row", row="bag")
    act(s, type="action", kind="supervisor")
    assert destinations(s) == [
        "s7", "s8", "s9", "s11", "s12", "s13", "s19", "s20", "s21", "s23", "s24", "s25"
    ]  # fmt: skip
    act(s, type="move", to="s9")
    assert s.gold[0] == 0 and BOARD.cell_ids[s.supervisor] == "s9"


def test_the_supervisor_may_not_stay_and_street_ends_do_not_wrap():
    s = build(gold=[0, 0, 0, 0], supervisor="s18")
    act(s, type="row", row="camels")  # one pip
    act(s, type="action", kind="supervisor")
    assert destinations(s) == ["s19"]
    s = build(gold=[1, 0, 0, 0], supervisor="s18")
    act(s, type="row", row="camels")
    act(s, type="action", kind="supervisor")
    assert destinations(s) == ["s19", "s20"]  # 0 steps (staying) is never allowed


def test_building_3_adjusts_up_to_three_for_free():
    s = build(gold=[0, 0, 0, 0], built={0: ["extra_movement"]})
    act(s, type="row", row="gold")  # six pips
    act(s, type="action", kind="supervisor")
    dests = destinations(s)
    # 3..9 steps from the centre: the up arm (4 long) only at 3 and 4 steps
    assert "s19" in dests and "s18" in dests and "s20" not in dests
    assert "s1" in dests and "s7" in dests and "s8" not in dests and "s0" not in dests
    act(s, type="move", to="s1")  # 9 steps: free with the building
    assert s.gold[0] == 0


def test_cubes_next_to_the_supervisor_go_to_the_caravan_in_the_movers_order():
    s = build(
        gold=[0, 0, 0, 0],
        camels=[0, 0, 2, 0],
        shops={"barrel-A-0": 1, "vase-A-0": 2, "barrel-A-1": 3},
    )
    act(s, type="row", row="camels")
    act(s, type="action", kind="supervisor")
    act(s, type="move", to="s11")  # touches barrel-A-0 and vase-A-0
    assert s.stage == "order" and s.actor == 0
    assert E.legal_actions(s) == [{"type": "first", "seat": 1}, {"type": "first", "seat": 2}]
    act(s, type="first", seat=2)
    assert s.stage == "send" and s.actor == 2
    assert E.legal_actions(s) == [{"type": "send"}, {"type": "pay"}]
    act(s, type="pay")  # seat 2 keeps its cube, pays a camel
    assert s.camels[2] == 1 and owners(s)["vase-A-0"] == 2
    assert s.caravan == [2] and s.vp[2] == 1
    assert s.stage == "send" and s.actor == 1
    assert E.legal_actions(s) == [{"type": "send"}]  # no camel: must send
    act(s, type="send")
    assert "barrel-A-0" not in owners(s) and s.caravan == [2, 1] and s.vp[1] == 1
    assert s.stage == "build" and s.actor == 0


def test_the_mover_sends_his_own_cubes_too_and_one_owner_needs_no_order():
    s = build(gold=[0, 0, 0, 0], shops={"barrel-A-0": 0, "vase-A-0": 0})
    act(s, type="row", row="camels")
    act(s, type="action", kind="supervisor")
    act(s, type="move", to="s11")
    assert s.stage == "send" and s.actor == 0
    act(s, type="send")
    act(s, type="send")
    assert s.caravan == [0, 0] and owners(s) == {}


def test_caravan_points_by_section_and_a_full_caravan_scores_and_empties():
    # three players: 3 sections of 3 spaces
    s = build(players=3, caravan=[0, 1, 0, 1, 0, 1, 2, 2], hands={0: ["place_caravan"]})
    act(s, type="play", card="place_caravan")
    # +3 for the 3rd section, then: seat 0 4 cubes x section 3, seat 1 3 x 2, seat 2 2 x 3
    assert s.vp == [3 + 12, 6, 6]
    assert s.caravan == []


def test_caravan_section_points_one_two_three():
    s = build(players=4, caravan=[1, 1, 1], hands={0: {"place_caravan": 2}})
    act(s, type="play", card="place_caravan")
    assert s.vp[0] == 1
    act(s, type="play", card="place_caravan")
    assert s.vp[0] == 3  # the 5th space is in section 2


def test_building_4_draws_a_card_for_each_cube_sent():
    s = build(
        gold=[0, 0, 0, 0],
        shops={"bag-C-1": 1},
        built={1: ["extra_card"]},
        deck=["3_gold", "score_camels"],
    )
    act(s, type="row", row="camels")
    act(s, type="action", kind="supervisor")
    act(s, type="move", to="s9")
    act(s, type="send")
    assert hand(s, 1) == {"score_camels": 1}


# ---- buildings -----------------------------------------------------------------------
def _build_turn(s, building, cards=()):
    act(s, type="row", row=usable_row(s))
    act(s, type="action", kind="card")
    act(s, type="build", building=building, cards=list(cards))


def usable_row(s):
    return row_ids(s)[0]


def test_building_costs_and_points_for_the_nth_building():
    s = build(gold=[20, 0, 0, 0], camels=[20, 0, 0, 0], deck=[])
    costs = {
        "extra_camel": (2, 0),
        "extra_gold": (2, 2),
        "extra_movement": (2, 2),
        "extra_card": (3, 3),
        "extra_points": (4, 4),
        "extra_cube": (4, 4),
    }
    points = []
    for b, (c, g) in costs.items():
        s.stage, s.actor, s.row = "build", 0, 0
        s._legal = None
        before = (s.camels[0], s.gold[0], s.vp[0])
        act(s, type="build", building=b, cards=[])
        assert (before[0] - s.camels[0], before[1] - s.gold[0]) == (c, g)
        points.append(s.vp[0] - before[2])
    assert points == [0, 5, 5, 5, 5, 10]


def test_only_affordable_unbuilt_buildings_are_offered_and_one_a_turn():
    s = build(gold=[2, 0, 0, 0], camels=[2, 0, 0, 0], built={0: ["extra_gold"]}, deck=[])
    act(s, type="row", row="bag")
    act(s, type="action", kind="card")
    assert E.legal_actions(s) == [
        {"type": "build", "building": "extra_camel", "cards": []},
        {"type": "build", "building": "extra_movement", "cards": []},
        {"type": "pass"},
    ]
    act(s, type="build", building="extra_camel", cards=[])
    assert s.turn == 1 and s.stage == "row"  # no second build; no card to play: turn over
    assert s.vp[0] == 5  # the second building


def test_build_cards_waive_camels_or_gold_or_both():
    s = build(gold=[0, 0, 0, 0], camels=[0, 0, 0, 0], hands={0: ["no_camels", "no_gold"]}, deck=[])
    act(s, type="row", row="bag")
    act(s, type="action", kind="card")
    builds = [a for a in E.legal_actions(s) if a["type"] == "build"]
    assert {"type": "build", "building": "extra_cube", "cards": ["no_camels", "no_gold"]} in builds
    assert all(
        a["cards"] == ["no_camels", "no_gold"] for a in builds if a["building"] != "extra_camel"
    )
    assert {"type": "build", "building": "extra_camel", "cards": ["no_camels"]} in builds
    act(s, type="build", building="extra_cube", cards=["no_camels", "no_gold"])
    assert s.built[0][5] == 1 and hand(s, 0) == {} and s.discard[7] == s.discard[8] == 1


def test_no_gold_card_pays_only_camels():
    s = build(gold=[0, 0, 0, 0], camels=[3, 0, 0, 0], hands={0: ["no_gold"]}, deck=[])
    act(s, type="row", row="bag")
    act(s, type="action", kind="card")
    act(s, type="build", building="extra_card", cards=["no_gold"])
    assert s.camels[0] == 0 and s.gold[0] == 0


def test_cards_may_be_played_after_building():
    s = build(gold=[0, 0, 0, 0], camels=[2, 0, 0, 0], hands={0: ["3_gold"]}, deck=[])
    act(s, type="row", row="bag")
    act(s, type="action", kind="card")
    act(s, type="build", building="extra_camel", cards=[])
    assert s.stage == "end" and s.actor == 0
    assert E.legal_actions(s)[0] == {"type": "end"}
    act(s, type="play", card="3_gold")
    assert s.gold[0] == 3
    act(s, type="end")
    assert s.turn == 1


def test_two_players_build_with_a_row_instead_of_after_the_action():
    s = build(players=2, camels=[2, 0])
    act(s, type="row", row="bag")
    legal = E.legal_actions(s)
    assert {"type": "build", "building": "extra_camel", "cards": []} in legal
    act(s, type="build", building="extra_camel", cards=[])
    assert s.built[0][0] == 1 and s.turn == 1 and s.actor == 1
    # after a row action there is no build step
    act(s, type="row", row="camels")
    act(s, type="action", kind="row")
    assert s.turn == 2 and s.actor == 0


# ---- cards ---------------------------------------------------------------------------
def test_cards_three_camels_and_three_gold():
    s = build(hands={0: ["3_camels", "3_gold"]})
    act(s, type="play", card="3_camels")
    act(s, type="play", card="3_gold")
    assert s.camels[0] == 3 and s.gold[0] == 5 and hand(s, 0) == {}


def test_card_place_board_any_district_not_in_another_players_souk():
    s = build(hands={0: ["place_board"]}, shops={"vase-C-0": 1, "bag-B-0": 0})
    act(s, type="play", card="place_board")
    assert s.stage == "card_place"
    choices = shop_choices(s)
    assert "vase-C-1" not in choices and "vase-A-0" in choices and "bag-B-1" in choices
    assert "bag-A-3" in choices  # the card need not fill bag-B first
    assert len(choices) == 47 - 3 - 1  # all but seat 1's souk and the occupied shop
    act(s, type="place", shop="vase-A-0")
    assert owners(s)["vase-A-0"] == 0 and s.stage == "row" and s.actor == 0


def test_card_swap_gold_and_camels():
    s = build(gold=[2, 0, 0, 0], camels=[1, 0, 0, 0], hands={0: ["swap_camels_gold"]})
    act(s, type="play", card="swap_camels_gold")
    assert E.legal_actions(s) == [
        {"type": "swap", "give": "gold", "count": 1},
        {"type": "swap", "give": "gold", "count": 2},
        {"type": "swap", "give": "camels", "count": 1},
    ]
    act(s, type="swap", give="gold", count=2)
    assert (s.gold[0], s.camels[0]) == (0, 3)


def test_card_gold_for_points_at_most_ten():
    s = build(gold=[12, 0, 0, 0], hands={0: ["score_gold"]})
    act(s, type="play", card="score_gold")
    assert [a["count"] for a in E.legal_actions(s)] == list(range(1, 11))
    act(s, type="score", count=10)
    assert s.gold[0] == 2 and s.vp[0] == 10


def test_card_camels_for_two_points_each_at_most_four():
    s = build(camels=[6, 0, 0, 0], hands={0: ["score_camels"]})
    act(s, type="play", card="score_camels")
    assert [a["count"] for a in E.legal_actions(s)] == [1, 2, 3, 4]
    act(s, type="score", count=4)
    assert s.camels[0] == 2 and s.vp[0] == 8


def test_cards_that_cannot_do_anything_are_not_offered():
    s = build(gold=[0, 0, 0, 0], hands={0: ["score_gold", "score_camels", "swap_camels_gold"]})
    assert "play" not in types(s)


def test_cards_during_the_turn_and_not_during_other_players_turns():
    s = build(hands={0: ["3_camels"], 1: ["3_gold"]})
    act(s, type="row", row="bag")
    assert {"type": "play", "card": "3_camels"} in E.legal_actions(s)
    act(s, type="action", kind="row")
    assert s.stage == "boost"
    act(s, type="go")
    # placing: the turn player may still play a card
    assert {"type": "play", "card": "3_camels"} in E.legal_actions(s)
    # seat 1's card is never offered in seat 0's turn, even when seat 1 decides
    s = build(gold=[0, 0, 0, 0], shops={"bag-C-1": 1}, hands={1: ["3_camels"]})
    act(s, type="row", row="camels")
    act(s, type="action", kind="supervisor")
    act(s, type="move", to="s9")
    assert s.actor == 1 and E.legal_actions(s) == [{"type": "send"}]


def test_a_card_can_pay_for_keeping_a_cube():
    s = build(gold=[0, 0, 0, 0], shops={"bag-C-1": 0}, hands={0: ["3_camels"]})
    act(s, type="row", row="camels")
    act(s, type="action", kind="supervisor")
    act(s, type="move", to="s9")
    assert E.legal_actions(s) == [{"type": "send"}, {"type": "play", "card": "3_camels"}]
    act(s, type="play", card="3_camels")
    act(s, type="pay")
    assert s.camels[0] == 2 and owners(s) == {"bag-C-1": 0} and s.caravan == [0]


def test_card_place_caravan_triggers_building_4():
    s = build(hands={0: ["place_caravan"]}, built={0: ["extra_card"]}, deck=["no_gold"])
    act(s, type="play", card="place_caravan")
    assert s.caravan == [0] and hand(s, 0) == {"no_gold": 1}


# ---- days, weeks and the end --------------------------------------------------------
def quick_turn(s):
    """The turn player takes the first row as a card and builds nothing."""
    assert s.stage == "row"
    legal = E.legal_actions(s)
    if legal[0]["type"] == "draw_card":
        E.apply(s, legal[0])
    else:
        E.apply(s, legal[0])
        act(s, type="action", kind="card")
    while s.stage in ("build", "end"):
        E.apply(s, {"type": "pass"} if s.stage == "build" else {"type": "end"})


def test_the_start_player_passes_counter_clockwise_and_the_supervisor_returns():
    s = build(players=4, start=1, supervisor="s3")
    assert s.order == [1, 2, 3, 0]
    for _ in range(4):
        quick_turn(s)
    assert (s.day, s.start, s.stage, s.actor) == (2, 0, "yellow", 0)
    assert s.order == [0, 1, 2, 3]
    assert BOARD.cell_ids[s.supervisor] == "s10"


def test_the_end_of_a_week_scores_souks_and_caravan_and_clears_the_souks():
    s = build(
        players=4,
        day=7,
        start=0,
        turn=3,
        shops={
            "vase-A-0": 0,  # complete: 4
            "chest-B-0": 1,  # complete with building 5: 4 + 2
            "chest-B-1": 1,
            "vase-C-0": 2,  # not complete
            "vase-C-1": 2,
        },
        built={1: ["extra_points"]},
        caravan=[0, 1, 1, 2, 3],
    )
    quick_turn(s)
    # souks, then caravan: seat 0 1x1, seat 1 2x1, seat 2 1x1, seat 3 1x2
    assert s.vp == [4 + 1, 6 + 2, 0 + 1, 2]
    assert owners(s) == {} and s.caravan == [0, 1, 1, 2, 3]
    assert (s.week, s.day, s.start) == (2, 1, 3)


def test_the_game_ends_after_the_third_week():
    s = build(players=3, week=3, day=7, turn=2, vp=[10, 12, 10], shops={"vase-A-0": 0})
    quick_turn(s)
    assert E.is_over(s) and E.to_act(s) is None and E.legal_actions(s) == []
    out = E.outcome(s)
    assert out["scores"] == [14, 12, 10] and out["ranks"] == [1, 2, 3]


def test_true_ties_share_a_rank():
    s = build(players=4, week=3, day=7, turn=3, vp=[10, 12, 10, 12], prev_start=1)
    s.order = [0, 1, 2, 3]
    quick_turn(s)
    assert E.outcome(s)["ranks"] == [3, 1, 3, 1]


def test_four_players_last_day_lowest_score_first_ties_nearer_counter_clockwise():
    s = build(players=4, week=3, day=7, start=1, prev_start=2, vp=[10, 5, 5, 20])
    # seats 1 and 2 tie: seat 1 is one step counter-clockwise from seat 2 (the
    # start player of the day before), seat 2 himself counts as farthest
    assert s.order == [1, 2, 0, 3] and s.start == 1
    s = build(players=4, week=3, day=7, start=1, prev_start=2, vp=[5, 5, 5, 5])
    assert s.order == [1, 0, 3, 2]


def test_four_players_last_day_is_reached_through_the_flow():
    s = build(players=4, week=3, day=6, start=2, vp=[10, 5, 5, 20])
    for _ in range(4):
        quick_turn(s)
    assert (s.week, s.day) == (3, 7)
    assert s.order == [1, 2, 0, 3] and s.start == 1 and s.stage == "yellow" and s.actor == 1


def test_three_players_last_day_keeps_the_rotation():
    s = build(players=3, week=3, day=7, start=2, vp=[0, 10, 20])
    assert s.order == [2, 0, 1]


def test_two_players_last_day_the_lower_score_starts():
    s = build(players=2, week=3, day=7, start=0, vp=[9, 4])
    assert s.order == [1, 0, 1] and s.start == 1
    s = build(players=2, week=3, day=7, start=0, vp=[4, 4])
    assert s.order == [0, 1, 0]


def test_start_player_rotation_matches_day_order():
    s = build(players=3, start=2)
    assert day_order(s) == [2, 0, 1]
    assert usable_rows(s, 2) == [0, 1, 2, 3, 4, 5]


# ---- validation ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "bad",
    [
        {"type": "row", "row": "nowhere"},
        {"type": "row"},
        {"type": "row", "row": "bag", "x": 1},
        {"type": "yellow", "count": 0},
        {"type": "play", "card": "3_gold"},
        {"type": "action", "kind": "row"},
        "row",
        None,
    ],
)
def test_illegal_actions_raise_and_change_nothing(bad):
    s = build()
    before = E.to_json(s)
    with pytest.raises(IllegalAction):
        E.apply(s, bad)
    assert E.to_json(s) == before


def test_booleans_and_floats_are_not_integers():
    s = build(players=3, rolled=False, gold=[5, 2, 2])
    for bad in ({"type": "yellow", "count": True}, {"type": "yellow", "count": 1.0}):
        with pytest.raises(IllegalAction):
            E.apply(s, bad)
    act(s, type="yellow", count=1)
