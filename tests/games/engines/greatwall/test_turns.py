"""Setup, refill, using pieces, lifting the scout, the end of the game and scoring."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.greatwall.constants import CHINA, MONGOLIA, ROUND_LIMIT
from games.engines.greatwall.scoring import ranks, scores, village_points

from .builder import BOARD, E, act, build, faces, move, targets

DRAW_WALL = {"type": "draw", "supply": "wall"}
DRAW_CHIP = {"type": "draw", "supply": "chip"}
USE_WALLS = {"type": "use", "pieces": "walls"}
USE_CHIPS = {"type": "use", "pieces": "chips"}
LIFT = {"type": "lift"}


# ---- setup ------------------------------------------------------------------------
def test_setup_two_neighbouring_chips_on_one_side_then_the_scout():
    s = E.new_game(players=3, seed=5)
    assert s.stage == "setup_chip" and s.seat == 0 and sum(s.hand) == 2
    legal = E.legal_actions(s)
    assert {a["type"] for a in legal} == {"setup"}
    first = legal[0]
    E.apply(s, first)
    second = E.legal_actions(s)
    a = BOARD.vindex[first["village"]]
    for action in second:
        b = BOARD.vindex[action["village"]]
        assert b in {w for w, _line, _road in BOARD.nbrs[a]}
        assert s.side[a] == s.side[b] and not s.stacks[b]
    E.apply(s, second[-1])
    assert s.stage == "setup_scout"
    assert {x["village"] for x in E.legal_actions(s)} == {first["village"], second[-1]["village"]}
    E.apply(s, E.legal_actions(s)[0])
    assert s.seat == 1 and s.stage == "setup_chip"
    # later players cannot use villages already taken
    taken = {first["village"], second[-1]["village"]}
    assert not taken & {x["village"] for x in E.legal_actions(s)}


def test_after_setup_everyone_has_two_walls_and_two_chips():
    s = E.new_game(players=4, seed=2)
    while s.stage.startswith("setup"):
        E.apply(s, E.legal_actions(s)[-1])
    assert s.seat == 0 and s.stage == "draw" and s.turn == 1
    assert s.active_walls == [2] * 4
    assert [sum(a) for a in s.active_chips] == [2] * 4
    assert [sum(p) for p in s.passive] == [13] * 4
    assert s.wall_supply == 28 - 7 - 8
    assert sum(1 for st in s.stacks if st) == 8
    assert all(v >= 0 for v in s.scouts)


def test_setup_chip_faces_come_from_the_two_drawn():
    s = E.new_game(players=2, seed=9)
    drawn = {f for f, k in enumerate(s.hand) if k}
    from games.engines.greatwall.constants import FACES

    assert {a["chip"] for a in E.legal_actions(s)} == {FACES[f] for f in drawn}
    with pytest.raises(IllegalAction):
        bad = next(f for f in FACES if FACES.index(f) not in drawn)
        E.apply(s, {"type": "setup", "village": "c2", "chip": bad})


# ---- refill -----------------------------------------------------------------------
def test_refill_takes_two_pieces_one_at_a_time():
    s = build(stacks={"c2": [(0, "peasant")]}, scouts={0: "c2"})
    assert s.stage == "draw"
    assert E.legal_actions(s) == [DRAW_WALL, DRAW_CHIP]
    act(s, **DRAW_CHIP)
    # the drawn chip is seen before the second choice
    obs = E.observation(s, 0)
    assert sum(obs["players"][0]["active_chips"].values()) == 1
    assert "active_chips" not in E.observation(s, 1)["players"][0]
    assert E.legal_actions(s) == [DRAW_WALL, DRAW_CHIP]
    act(s, **DRAW_WALL)
    assert s.stage == "use"
    assert s.active_walls[0] == 1 and sum(s.active_chips[0]) == 1


def test_at_most_four_of_a_kind_in_the_active_supply():
    # rulebook example: Anna has 3 walls; she may take one more wall at most
    s = build(stacks={"c2": [(0, "peasant")]}, scouts={0: "c2"}, active_walls={0: 3})
    act(s, **DRAW_WALL)
    assert E.legal_actions(s) == [DRAW_CHIP]
    s = build(stacks={"c2": [(0, "peasant")]}, scouts={0: "c2"}, active_walls={0: 3})
    act(s, **DRAW_CHIP)  # a chip first, seen, then the choice: wall
    assert E.legal_actions(s) == [DRAW_WALL, DRAW_CHIP]
    act(s, **DRAW_WALL)
    assert s.active_walls[0] == 4
    s = build(stacks={"c2": [(0, "peasant")]}, scouts={0: "c2"}, active={0: {"mongol": 4}})
    assert E.legal_actions(s) == [DRAW_WALL]
    with pytest.raises(IllegalAction):
        E.apply(s, DRAW_CHIP)


def test_as_many_as_possible_when_two_cannot_be_taken():
    s = build(
        stacks={"c2": [(0, "peasant")]},
        scouts={0: "c2"},
        active={0: {"mongol": 4}},
        wall_supply=1,
    )
    act(s, **DRAW_WALL)
    assert s.stage == "use"  # nothing more can be taken
    s = build(
        stacks={"c2": [(0, "peasant")]},
        scouts={0: "c2"},
        active={0: {"mongol": 4}},
        active_walls={0: 4},
    )
    assert s.stage == "use"  # nothing at all
    assert E.legal_actions(s) == [USE_WALLS, USE_CHIPS]


# ---- using pieces -----------------------------------------------------------------
def test_all_walls_or_all_chips():
    s = build(
        stacks={"c2": [(0, "peasant")]},
        scouts={0: "c2"},
        active={0: {"mongol": 2}},
        active_walls={0: 2},
        stage="use",
    )
    assert E.legal_actions(s) == [USE_WALLS, USE_CHIPS]  # not blocked: no lift
    with pytest.raises(IllegalAction):
        E.apply(s, LIFT)
    act(s, **USE_WALLS)
    act(s, type="wall", line="c3/d3")
    assert s.stage == "wall"
    act(s, type="wall", line="c2/d2")
    assert s.seat == 1
    assert sum(s.active_chips[0]) == 2  # the chips wait for a later turn


def blocked_state(**kw):
    # b1: roads to b2 and c1 only, both occupied by the other scouts; no wall near
    return build(
        3,
        stacks={
            "b1": [(0, "mongol")],
            "b2": [(1, "peasant")],
            "c1": [(2, "peasant")],
            "e2": [(0, "mongol")],
            "e5": [(0, "chinese")],
        },
        scouts={0: "b1", 1: "b2", 2: "c1"},
        active={0: {"mongol": 2}},
        stage="use",
        **kw,
    )


def test_a_blocked_scout_may_be_lifted_instead_of_using_pieces():
    s = blocked_state()
    assert E.legal_actions(s) == [USE_CHIPS, LIFT]
    act(s, **LIFT)
    assert s.scouts[0] == -1 and s.seat == 1
    assert sum(s.active_chips[0]) == 2  # nothing used in that turn


def test_using_chips_with_a_blocked_scout_loses_them():
    s = blocked_state()
    act(s, **USE_CHIPS)
    assert s.lost[0] == faces({"mongol": 2})
    assert s.seat == 1


def test_a_lifted_scout_returns_to_an_own_village_before_the_chips():
    s = blocked_state()
    act(s, **LIFT)
    s.seat, s.stage = 0, "use"  # Seat 0 again (skipping the others' turns)
    act(s, **USE_CHIPS)
    assert s.stage == "scout"
    # own villages from which it can go on: e2 and e5 (b1 is still blocked)
    assert [a["village"] for a in E.legal_actions(s)] == ["e2", "e5"]
    act(s, type="scout", village="e5")
    assert s.stage == "move"
    assert "e5" not in targets(s)
    move(s, "d5")
    assert s.stage == "lay"


def test_a_lifted_scout_without_a_usable_own_village_starts_on_any_free_village():
    s = build(
        3,
        stacks={"b1": [(0, "mongol")], "b2": [(1, "peasant")], "c1": [(2, "peasant")]},
        scouts={0: None, 1: "b2", 2: "c1"},
        active={0: {"mongol": 1}},
        stage="use",
    )
    act(s, **USE_CHIPS)  # b1 is seat 0's only village, and it is blocked
    free = [a["village"] for a in E.legal_actions(s)]
    occupied = {"b1", "b2", "c1"}
    assert set(free) == set(BOARD.vids) - occupied


# ---- the end ----------------------------------------------------------------------
def end_state(players=2, **kw):
    return build(
        players,
        stacks={"c2": [(0, "peasant")], "e5": [(1, "peasant")], "b5": [(2, "peasant")]}
        if players == 3
        else {"c2": [(0, "peasant")], "e5": [(1, "peasant")]},
        scouts={0: "c2", 1: "e5", 2: "b5"} if players == 3 else {0: "c2", 1: "e5"},
        **kw,
    )


def test_the_end_is_announced_when_a_draw_empties_the_second_supply():
    s = end_state(passive={0: {"mongol": 1}, 1: {}})  # seat 1's passive is already empty
    assert s.announced == -1
    act(s, **DRAW_CHIP)
    assert s.announced == 0 and not s.final
    act(s, **DRAW_WALL)
    act(s, **USE_WALLS)
    act(s, type="wall", line="c3/d3")
    assert s.final and s.seat == 1  # the final round: seat 1, then seat 0 last
    act(s, **DRAW_WALL)
    act(s, **DRAW_WALL)
    act(s, **USE_WALLS)
    act(s, type="wall", line="c2/d2")
    act(s, type="wall", line="c2/c3")
    assert not s.over and s.seat == 0
    while not s.over:
        assert s.seat == 0
        act(s, **E.legal_actions(s)[0])
    assert E.to_act(s) is None and E.legal_actions(s) == []


def test_the_wall_supply_counts_as_a_supply():
    s = end_state(passive={0: {"mongol": 3}, 1: {}}, wall_supply=1)
    act(s, **DRAW_WALL)
    assert s.announced == 0


def test_one_empty_supply_does_not_end_the_game():
    s = end_state(3, passive={0: {"mongol": 1}, 1: {"mongol": 3}, 2: {"mongol": 3}})
    act(s, **DRAW_CHIP)
    assert s.announced == -1
    s = end_state(3, passive={0: {"mongol": 1}, 1: {}, 2: {"mongol": 3}})
    act(s, **DRAW_CHIP)
    assert s.announced == 0


def test_a_random_game_ends_after_the_announcers_last_turn():
    s = E.new_game(players=3, seed=11)
    import random

    rng = random.Random(3)
    announced_turn = None
    while not s.over:
        before = s.announced
        seat = s.seat
        E.apply(s, rng.choice(E.legal_actions(s)))
        if before < 0 and s.announced >= 0:
            assert s.announced == seat
            announced_turn = s.turn
    assert announced_turn is not None
    # the announcer's turn, then one full round of 3 turns, the announcer last
    assert s.turn == announced_turn + 3
    assert s.seat == s.announced


def test_the_round_limit_safeguard_announces_the_end():
    s = end_state()
    s.round = ROUND_LIMIT - 1
    s.seat = 1
    s.stage = "end_turn"
    from games.engines.greatwall.flow import advance

    advance(s, BOARD)
    assert s.announced == 1 and s.final and s.seat == 0


# ---- scoring ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("stack", "side", "points"),
    [
        (["mongol"], MONGOLIA, 3),
        (["mongol"], CHINA, -3),
        (["chinese"], CHINA, 3),
        (["chinese", "chinese", "mongol", "peasant"], MONGOLIA, -3 - 3 + 3 + 1),
        (["peasant", "peasant"], CHINA, 2),
        (["plague", "mongol", "chinese", "peasant"], MONGOLIA, -3 - 3 - 1),
        (["plague", "plague", "peasant"], CHINA, -1),
        (["herb", "mongol", "chinese", "peasant"], CHINA, 3 + 3 + 1),
        (["herb", "plague", "mongol", "chinese", "peasant"], CHINA, -3 + 3 + 1),
        (["herb", "plague", "plague", "mongol"], MONGOLIA, 3),
        (["plague"], MONGOLIA, 0),
        (["herb"], CHINA, 0),
    ],
)
def test_village_points(stack, side, points):
    from games.engines.greatwall.constants import FACE_INDEX

    assert village_points([FACE_INDEX[f] for f in stack], side) == points


def test_every_village_counts_for_the_player_on_top():
    s = build(
        2,
        stacks={
            "c2": [(1, "mongol"), (1, "mongol"), (0, "peasant")],  # seat 0: 3 + 3 + 1
            "c5": [(0, "mongol"), (1, "chinese")],  # seat 1: -3 + 3
            "d5": [(0, "plague"), (1, "chinese")],  # seat 1: -3
        },
        scouts={0: "c2", 1: "c5"},
    )
    assert scores(s) == [7, -3]


def test_ranks_are_shared_only_by_equal_scores():
    assert ranks([5, 7, 5, -1]) == [2, 1, 2, 4]
    assert ranks([3, 3]) == [1, 1]
