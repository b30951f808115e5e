"""Territory from the wall: spurs, loops, new ends, ties, isolated pieces (rulebook figs 7, 8, 10, 11)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.greatwall.walls import place, placeable

from .builder import (
    BOARD,
    START_WALL,
    E,
    build,
    great_wall,
    ln,
    mongolia,
    pieces,
    side,
    wall,
    wall_count,
)

NORTH = {vid for vid in BOARD.vids if vid[1] in "123"}


def walls_turn(n: int, walls: dict[str, str] | None = None, **kw):
    """Seat 0 about to place `n` wall pieces."""
    s = build(walls=walls, active_walls={0: n}, stage="wall", **kw)
    assert s.stage == "wall"
    return s


def check_wall_invariants(s) -> None:
    """One tree of pieces touching the rim at two towers; the Great Wall is the path
    between them; neighbouring villages differ in side exactly across it."""
    on = [x for x, w in enumerate(s.walls) if w]
    towers = {t for x in on for t in BOARD.line_towers[x]}
    assert len(towers) == len(on) + 1  # a tree (connected is checked by the path)
    rims = [t for t in towers if BOARD.tedge[t]]
    assert len(rims) == 2
    gw = s.great_wall
    assert set(gw) <= set(on)
    ends = {t for x in gw for t in BOARD.line_towers[x]}
    assert set(rims) <= ends
    for a, out in enumerate(BOARD.nbrs):
        for b, line, _road in out:
            assert (s.side[a] != s.side[b]) == (line in set(gw))
    assert wall_count(s) == 28


def test_the_starting_wall_splits_the_board_in_the_middle():
    s = E.new_game(players=3, seed=1)
    assert great_wall(s) == START_WALL == [f"{c}3/{c}4" for c in "abcdefg"]
    assert pieces(s) == dict.fromkeys(START_WALL, "open")
    assert mongolia(s) == NORTH and len(NORTH) == 19
    check_wall_invariants(s)


def test_pieces_must_touch_the_wall_network():
    s = walls_turn(2)
    lines = {BOARD.lids[x] for x in placeable(s, BOARD)}
    # lines at the towers of the starting wall (rim towers T03/T73 have no other line)
    assert "c3/d3" in lines and "c4/d4" in lines and "b1/b2" not in lines
    assert not lines & set(START_WALL)
    with pytest.raises(IllegalAction):
        E.apply(s, {"type": "wall", "line": "b1/b2"})
    with pytest.raises(IllegalAction):
        E.apply(s, {"type": "wall", "line": "c3/c4"})  # taken
    # a spur extends the network
    wall(s, "c3/d3")
    assert "c2/d2" in {BOARD.lids[x] for x in placeable(s, BOARD)}


def test_spurs_change_no_territory():
    s = walls_turn(3)
    wall(s, "c3/d3")
    wall(s, "c2/d2")
    wall(s, "c1/c2")
    assert great_wall(s) == START_WALL
    assert mongolia(s) == NORTH
    assert pieces(s)["c1/c2"] == "open"
    check_wall_invariants(s)


def test_figure_10_a_loop_of_three_replaces_one_piece_and_the_village_changes_sides():
    s = walls_turn(3)
    wall(s, "b4/c4")
    wall(s, "c4/c5")
    assert side(s, "c4") == "chinese"
    wall(s, "c4/d4")  # closes the loop c3/c4 + the three new pieces
    assert "c3/c4" not in pieces(s)
    assert great_wall(s) == [
        "a3/a4",
        "b3/b4",
        "b4/c4",
        "c4/c5",
        "c4/d4",
        "d3/d4",
        "e3/e4",
        "f3/f4",
        "g3/g4",
    ]
    assert mongolia(s) == NORTH | {"c4"}
    assert s.wall_supply == 28 - 7 - 3 + 1
    check_wall_invariants(s)


FIG7_SPUR = {"b3/c3": "open", "b2/c2": "open", "c1/c2": "open", "c2/d2": "open"}


def test_figure_7_the_longer_connection_stays_and_the_land_inside_turns_chinese():
    s = walls_turn(1, walls={**dict.fromkeys(START_WALL, "open"), **FIG7_SPUR})
    assert mongolia(s) == NORTH
    wall(s, "c3/d3")  # the "orange" piece: a loop of 5 new against 1 old piece
    assert "c3/c4" not in pieces(s)
    assert {"c2", "c3"} == NORTH - mongolia(s)
    assert len(great_wall(s)) == 7 - 1 + 5
    check_wall_invariants(s)


FIG8_WALL = {
    "a3/a4": "open",
    "b3/b4": "open",
    "c3/c4": "open",
    "c4/d4": "closed",
    "d4/d5": "open",
    "e4/e5": "open",
    "f4/f5": "open",
    "g4/g5": "open",
}


def test_figure_8_equal_parts_the_new_part_goes_with_what_it_isolates():
    s = walls_turn(3, walls=FIG8_WALL)
    before = mongolia(s)
    assert {"d4", "e4", "f4", "g4"} <= before
    wall(s, "d3/d4")  # spur from T33
    wall(s, "d3/e3")  # the "plan": a spur hanging from the new connection
    wall(s, "d4/e4")  # closes a square: new 2 pieces against the old 2 (c4/d4, d4/d5)
    assert set(pieces(s)) == set(FIG8_WALL)  # the new part and the isolated spur are gone
    assert mongolia(s) == before
    assert s.wall_supply == 28 - 8 - 3 + 3
    check_wall_invariants(s)


def test_a_longer_part_replaces_a_shorter_one_and_isolated_spurs_go():
    walls = {**dict.fromkeys(START_WALL, "open"), "c4/d4": "open"}  # spur hanging from T33
    s = walls_turn(6, walls=walls)
    for line in ["b3/c3", "b2/c2", "c1/c2", "d1/d2", "d2/e2"]:
        wall(s, line)
    wall(s, "d3/e3")  # loop: 6 new against c3/c4 + d3/d4
    on = pieces(s)
    assert "c3/c4" not in on and "d3/d4" not in on
    assert "c4/d4" not in on  # isolated: it hung from T33
    assert NORTH - mongolia(s) == {"c2", "c3", "d2", "d3"}
    check_wall_invariants(s)


def test_figure_11_a_longer_new_end_removes_the_old_end():
    s = walls_turn(3)
    wall(s, "e4/f4")
    wall(s, "f4/f5")
    wall(s, "g4/g5")  # reaches the rim tower T74: branches 5 (west), 2 (old end), 3 (new)
    on = pieces(s)
    assert "f3/f4" not in on and "g3/g4" not in on
    assert mongolia(s) == NORTH | {"f4", "g4"}
    assert great_wall(s)[-3:] == ["e4/f4", "f4/f5", "g4/g5"]
    check_wall_invariants(s)


def test_a_new_end_as_long_as_the_shortest_old_end_goes_again():
    s = walls_turn(3)
    wall(s, "c4/d4")
    wall(s, "c5/d5")
    wall(s, "c6/d6")  # new end of 3 from T33; the west end is 3 too: the newer goes
    assert pieces(s) == dict.fromkeys(START_WALL, "open")
    assert mongolia(s) == NORTH
    check_wall_invariants(s)


def test_a_short_old_end_is_replaced_by_a_longer_new_one():
    s = walls_turn(2)
    wall(s, "f4/g4")
    wall(s, "g4/g5")  # from T63: new 2 against the old end g3/g4 (1)
    assert "g3/g4" not in pieces(s)
    assert mongolia(s) == NORTH | {"g4"}
    check_wall_invariants(s)


def test_a_loop_off_a_spur_is_opened_by_removing_the_new_piece():
    walls = {
        **dict.fromkeys(START_WALL, "open"),
        "b3/c3": "open",
        "b2/c2": "open",
        "c1/c2": "open",
        "c2/d2": "open",
    }
    s = walls_turn(1, walls=walls)
    supply = s.wall_supply
    result = place(s, BOARD, ln("c2/c3"))  # closes a ring around c2 that misses the Great Wall
    assert result.kind == "spur_loop" and result.removed == [ln("c2/c3")]
    assert pieces(s) == walls
    assert s.wall_supply == supply + 1
    assert mongolia(s) == NORTH


def test_pieces_removed_in_the_final_round_leave_the_game():
    s = walls_turn(3)
    s.final = True
    wall(s, "b4/c4")
    wall(s, "c4/c5")
    wall(s, "c4/d4")
    assert "c3/c4" not in pieces(s)
    assert s.walls_out == 1
    assert s.wall_supply == 28 - 7 - 3
    check_wall_invariants(s)


def test_a_placement_reports_what_it_did():
    s = walls_turn(3)
    assert place(s, BOARD, ln("b4/c4")).kind == "spur"
    place(s, BOARD, ln("c4/c5"))
    r = place(s, BOARD, ln("c4/d4"))
    assert r.kind == "loop"
    assert r.removed == [ln("c3/c4")]
    assert r.flipped == [BOARD.vindex["c4"]]
    assert r.isolated == []
