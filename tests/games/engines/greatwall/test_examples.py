"""The rulebook's figures 3-6 and 9-11 as constructed positions.

The board is this platform's design (README), so each figure is rebuilt with
the same situation on it: the same kind of step, the same wall shapes, the
same counts of pieces where the board allows."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.greatwall.constants import CLOSED, OPEN
from games.engines.greatwall.observation import observe
from games.engines.greatwall.scoring import scores

from .builder import (
    BOARD,
    START_WALL,
    E,
    act,
    build,
    lay,
    ln,
    mongolia,
    move,
    moves,
    pieces,
    side,
    stack,
    targets,
    wall,
)


def chips_turn(walls=None, **kw):
    """Seat 0 (unless told) about to step with the scout."""
    s = build(walls=walls, stage="use", **kw)
    act(s, type="use", pieces="chips")
    assert s.stage == "move"
    return s


# ---- figures 3-6: where the scout may go ---------------------------------------
def test_figure_3_roads_lead_to_neighbours_on_the_same_side():
    s = chips_turn(stacks={"c2": [(0, "peasant")]}, scouts={0: "c2"}, active={0: {"mongol": 2}})
    # c2 has roads to b2, d2, c1 and c3; no wall piece borders c2
    assert moves(s) == [("c1", ()), ("b2", ()), ("d2", ()), ("c3", ())]
    move(s, "d2")
    lay(s, "mongol")
    # d2: roads to c2 (start: never back), d1, d3; none to e2
    assert targets(s) == {"d1", "d3"}


def test_figure_4_an_open_gate_leads_to_the_other_side_and_closes():
    s = chips_turn(stacks={"d3": [(0, "peasant")]}, scouts={0: "d3"}, active={0: {"chinese": 2}})
    assert ("d4", ("d3/d4",)) in moves(s)
    move(s, "d4", "d3/d4")
    assert pieces(s)["d3/d4"] == "closed"
    lay(s, "chinese")
    # back through the now closed gate: impossible (and d3 was the start anyway)
    assert ("d3", ("d3/d4",)) not in moves(s)


def test_a_closed_piece_blocks_the_road_and_the_gate():
    walls = {**dict.fromkeys(START_WALL, "open"), "b3/b4": "closed"}
    s = chips_turn(
        walls, stacks={"b3": [(0, "peasant")]}, scouts={0: "b3"}, active={0: {"mongol": 1}}
    )
    # the road b3-b4 crosses the Great Wall at a closed piece: no way through
    assert "b4" not in targets(s)
    assert targets(s) == {"a3"}  # road b3-a3; b3 borders no open piece


def test_a_piece_on_a_road_blocks_it_even_on_one_side():
    walls = {**dict.fromkeys(START_WALL, "open"), "c2/c3": "closed", "c3/d3": "closed"}
    s = chips_turn(
        walls, stacks={"c3": [(0, "peasant")]}, scouts={0: "c3"}, active={0: {"mongol": 1}}
    )
    assert "c2" not in targets(s)  # the spur piece stands on the road c2-c3
    assert ("c4", ("c3/c4",)) in moves(s)


def test_figures_5_and_6_along_the_wall_over_closed_pieces():
    walls = {
        **dict.fromkeys(START_WALL, "closed"),
        "b3/b4": "open",
        "f3/f4": "open",
    }
    s = chips_turn(
        walls, stacks={"b3": [(0, "peasant")]}, scouts={0: "b3"}, active={0: {"mongol": 2}}
    )
    along = {m for m in moves(s) if len(m[1]) == 2}
    # up at b3/b4, walk over the closed pieces, down at f3/f4 on either side
    assert along == {("f3", ("b3/b4", "f3/f4")), ("f4", ("b3/b4", "f3/f4"))}
    move(s, "f3", "b3/b4", "f3/f4")
    assert pieces(s)["b3/b4"] == "closed" and pieces(s)["f3/f4"] == "closed"
    lay(s, "mongol")
    assert targets(s) == {"g3"}  # f3: road to g3; no open piece left to climb


def test_climbing_needs_an_open_piece_beside_the_start():
    walls = {**dict.fromkeys(START_WALL, "closed"), "e3/e4": "open"}
    s = chips_turn(
        walls, stacks={"c3": [(0, "peasant")]}, scouts={0: "c3"}, active={0: {"mongol": 1}}
    )
    assert all(len(via) == 0 for _to, via in moves(s))


def test_spurs_are_part_of_the_wall_walk():
    walls = {
        **dict.fromkeys(START_WALL, "closed"),
        "c3/d3": "closed",
        "c2/d2": "open",
        "b3/b4": "open",
    }
    s = chips_turn(
        walls, stacks={"b3": [(0, "peasant")]}, scouts={0: "b3"}, active={0: {"mongol": 1}}
    )
    assert ("d2", ("b3/b4", "c2/d2")) in moves(s)
    assert ("c2", ("b3/b4", "c2/d2")) in moves(s)


def test_never_twice_to_one_village_never_back_to_the_start_never_to_another_scout():
    s = chips_turn(
        stacks={"c2": [(0, "peasant")], "b2": [(1, "mongol")]},
        scouts={0: "c2", 1: "b2"},
        active={0: {"mongol": 3}},
    )
    assert "b2" not in targets(s)  # the other scout stands there
    move(s, "c1")
    lay(s, "mongol")
    assert targets(s) == {"b1"}  # c2 is the start
    move(s, "b1")
    lay(s, "mongol")
    # b1: roads to c1 (visited) and b2 (other scout): blocked, the last chip leaves the game
    assert s.seat == 1
    assert s.lost[0][1] == 1 and sum(s.active_chips[0]) == 0
    assert s.scouts[0] == BOARD.vindex["b1"]


def test_the_gate_closes_at_once_for_the_rest_of_the_turn():
    walls = {**dict.fromkeys(START_WALL, "closed"), "d3/d4": "open", "e3/e4": "open"}
    s = chips_turn(
        walls, stacks={"d3": [(0, "peasant")]}, scouts={0: "d3"}, active={0: {"mongol": 3}}
    )
    move(s, "d4", "d3/d4")
    lay(s, "mongol")
    # from d4 the only open piece beside it is gone; e3/e4 is open but d4 cannot climb
    assert ("e3", ("d3/d4", "e3/e4")) not in moves(s)
    assert targets(s) == {"e4", "d5"}  # the roads from d4


# ---- figure 9: Green's turn -------------------------------------------------------
RED, GREEN, BLUE = 0, 1, 2


def figure_9_state():
    walls = {
        **dict.fromkeys(START_WALL, "closed"),
        "c3/c4": "open",
        "d3/d4": "open",
        "g3/g4": "open",
    }
    return build(
        3,
        walls=walls,
        stacks={
            "c4": [(RED, "chinese")],
            "g4": [(RED, "peasant")],
            "e5": [(GREEN, "peasant")],
            "b2": [(BLUE, "mongol")],
        },
        scouts={RED: "g4", GREEN: "e5", BLUE: "b2"},
        active={GREEN: {"plague": 1, "mongol": 1}},
        active_walls={GREEN: 1},
        passive={GREEN: {"chinese": 1}, RED: {"peasant": 3}, BLUE: {"peasant": 3}},
        seat=GREEN,
    )


def test_figure_9_green_lays_plague_and_mongol_then_walks_the_wall_to_a_red_village():
    s = figure_9_state()
    assert s.stage == "draw"
    act(s, type="draw", supply="chip")  # sees a Chinese warrior, then takes a wall
    assert s.active_chips[GREEN] == [1, 1, 0, 1, 0]
    act(s, type="draw", supply="wall")
    act(s, type="use", pieces="chips")
    move(s, "e4")  # road; e4 is free and near the wall
    lay(s, "plague")
    move(s, "d4")  # the neighbouring village
    lay(s, "mongol")
    # up at d3/d4; the red village with the red scout (g4) is taboo, c4 is not
    assert ("c4", ("d3/d4", "c3/c4")) in moves(s)
    assert "g4" not in targets(s)
    obs = observe(s, BOARD, GREEN)
    assert [c["chip"] for c in obs["villages"][BOARD.vindex["c4"]]["stack"]] == [None]
    move(s, "c4", "d3/d4", "c3/c4")
    lay(s, "chinese")
    assert pieces(s)["d3/d4"] == "closed" and pieces(s)["c3/c4"] == "closed"
    assert s.controller(BOARD.vindex["c4"]) == GREEN
    obs = observe(s, BOARD, GREEN)
    assert [c["chip"] for c in obs["villages"][BOARD.vindex["c4"]]["stack"]] == [
        "chinese",
        "chinese",
    ]
    assert stack(s, "c4") == [(RED, "chinese"), (GREEN, "chinese")]
    assert s.seat == BLUE  # all chips used: the turn is over


def figure_10_state():
    walls = dict.fromkeys(START_WALL, "closed")
    return build(
        3,
        walls=walls,
        stacks={
            "c4": [(RED, "chinese"), (GREEN, "chinese")],
            "d4": [(GREEN, "mongol")],
            "e4": [(GREEN, "plague")],
        },
        scouts={RED: "g4", GREEN: "c4", BLUE: "b2"},
        active_walls={RED: 2},
        passive={RED: {"peasant": 2}, GREEN: {"peasant": 2}, BLUE: {"peasant": 2}},
        seat=RED,
    )


def test_figure_10_red_builds_a_loop_round_the_green_village():
    s = figure_10_state()
    before = scores(s)
    assert before[GREEN] == 6 + 3 * -1 + 0  # c4: two Chinese in China; d4: Mongol in China
    act(s, type="draw", supply="chip")
    act(s, type="draw", supply="wall")  # three walls now
    act(s, type="use", pieces="walls")
    wall(s, "b4/c4")
    wall(s, "c4/c5")
    wall(s, "c4/d4")
    assert side(s, "c4") == "mongol"
    assert "c3/c4" not in pieces(s)
    after = scores(s)
    assert after[GREEN] == before[GREEN] - 12  # both Chinese now count -3
    assert s.seat == GREEN  # the next seat


def test_figure_11_blue_extends_the_end_to_the_lower_east_tower():
    s = build(
        3,
        stacks={"f4": [(BLUE, "mongol")], "g4": [(BLUE, "mongol")]},
        scouts={RED: "b2", GREEN: "c2", BLUE: "g4"},
        active_walls={BLUE: 1},
        passive={RED: {"peasant": 2}, GREEN: {"peasant": 2}, BLUE: {"peasant": 2}},
        seat=BLUE,
    )
    assert scores(s)[BLUE] == -6
    act(s, type="draw", supply="wall")
    act(s, type="draw", supply="wall")
    act(s, type="use", pieces="walls")
    wall(s, "e4/f4")
    wall(s, "f4/f5")
    assert mongolia(s) == {v for v in BOARD.vids if v[1] in "123"}  # spurs change nothing
    wall(s, "g4/g5")
    assert "f3/f4" not in pieces(s) and "g3/g4" not in pieces(s)
    assert side(s, "f4") == side(s, "g4") == "mongol"
    assert scores(s)[BLUE] == 6
    assert s.walls[ln("e4/f4")] == OPEN
    assert s.walls[ln("a3/a4")] == OPEN


def test_a_wall_walk_closes_only_the_pieces_used():
    s = chips_turn(stacks={"b3": [(0, "peasant")]}, scouts={0: "b3"}, active={0: {"mongol": 1}})
    move(s, "e4", "b3/b4", "e3/e4")
    assert s.walls[ln("b3/b4")] == CLOSED and s.walls[ln("e3/e4")] == CLOSED
    assert s.walls[ln("c3/c4")] == OPEN and s.walls[ln("d3/d4")] == OPEN


def test_an_illegal_step_leaves_the_state_alone():
    s = chips_turn(stacks={"c2": [(0, "peasant")]}, scouts={0: "c2"}, active={0: {"mongol": 1}})
    before = E.to_json(s)
    for bad in (
        {"type": "move", "to": "e2"},
        {"type": "move", "to": "c2"},
        {"type": "move", "to": "c3", "gate": "c2/c3"},
        {"type": "move", "to": "c3", "up": "c3/c4", "down": "c3/c4"},
        {"type": "move", "to": "c3", "gate": ["c2/c3"]},
        {"type": "move", "to": "c3", "gate": "no/line"},
        {"type": "lay", "chip": "mongol"},
    ):
        with pytest.raises(IllegalAction):
            E.apply(s, bad)
        assert E.to_json(s) == before
