"""The end of the game: two supplies empty at the same time (README, reading 8).

The supplies are the common wall supply, which counts only while it holds no
piece (pieces removed from the board refill it), and each player's passive
chip supply, which counts once empty (it never refills)."""

from __future__ import annotations

import json
import random

from games.engines.greatwall.flow import empty_supplies
from games.engines.greatwall.state import to_json

from .builder import E, act, build, wall

DRAW_WALL = {"type": "draw", "supply": "wall"}
DRAW_CHIP = {"type": "draw", "supply": "chip"}
USE_WALLS = {"type": "use", "pieces": "walls"}
USE_CHIPS = {"type": "use", "pieces": "chips"}


def reported_game():
    """Issue 12's game, "seed 3005, random play" (4 players): random choices from
    random.Random("playout:3005") at every decision with more than one legal
    action, forced ones taken as they are. Of the ways of playing seed 3005 at
    random that were tried, this one shows what the issue reports (seat 0's
    passive chips run out while the wall supply holds 1 piece). Yields the
    seat that acted, its action and the state after it."""
    rng = random.Random("playout:3005")
    s = E.new_game(players=4, seed=3005)
    while not s.over:
        legal = E.legal_actions(s)
        action = legal[0] if len(legal) == 1 else rng.choice(legal)
        seat = s.seat
        E.apply(s, action)
        yield seat, action, s


def test_seed_3005_chips_running_out_beside_a_wall_piece_do_not_end_the_game():
    wall_supply_ran_dry = False
    chips_out = announced = None
    for seat, action, s in reported_game():
        if chips_out is None and not any(s.passive[0]):
            # The moment: the old reading announced here, the wall supply
            # having run dry earlier and pieces having come back since.
            chips_out = s.ply
            assert (seat, action) == (0, DRAW_CHIP)
            assert wall_supply_ran_dry and s.wall_supply == 1
            assert empty_supplies(s) == 1
            assert s.announced == -1
        if s.wall_supply == 0:
            wall_supply_ran_dry = True
        if announced is None and s.announced >= 0:
            announced = s.ply
            # the next draw that empties a second supply: the last wall piece
            assert (seat, action) == (1, DRAW_WALL) and s.announced == 1
            assert s.wall_supply == 0 and not any(s.passive[0])
            assert empty_supplies(s) == 2
        if announced is None:
            assert empty_supplies(s) < 2
    assert chips_out is not None and announced is not None and chips_out < announced
    out = E.outcome(s)
    assert out["final"] and out["announced_by"] == 1
    assert s.round < 60  # a normal end, not the safeguard
    assert s.seat == 1  # the announcer played last


def end_state(players=2, **kw):
    stacks = {"c2": [(0, "peasant")], "e5": [(1, "peasant")], "b6": [(2, "peasant")]}
    scouts = {0: "c2", 1: "e5", 2: "b6"}
    return build(
        players,
        stacks={k: c for k, c in stacks.items() if c[0][0] < players},
        scouts={p: x for p, x in scouts.items() if p < players},
        **kw,
    )


def test_a_passive_supply_running_out_while_the_wall_supply_holds_a_piece_does_not_end_it():
    s = end_state(passive={0: {"mongol": 1}, 1: {"mongol": 3}}, wall_supply=1)
    act(s, **DRAW_CHIP)
    assert not any(s.passive[0]) and s.wall_supply == 1
    assert s.announced == -1
    # the same seat then takes the last wall piece: two supplies empty at once
    act(s, **DRAW_WALL)
    assert s.announced == 0 and not s.final


def test_the_last_chip_drawn_while_the_wall_supply_is_empty_ends_it():
    s = end_state(passive={0: {"mongol": 1}, 1: {"mongol": 3}}, wall_supply=0)
    assert empty_supplies(s) == 1
    act(s, **DRAW_CHIP)
    assert s.announced == 0


def test_wall_pieces_coming_back_refill_the_wall_supply():
    # Seat 0 empties the wall supply (the only empty supply: no end) ...
    s = end_state(passive={0: {"mongol": 3}, 1: {"mongol": 1}}, wall_supply=2, active_walls={0: 1})
    act(s, **DRAW_WALL)
    act(s, **DRAW_WALL)
    assert s.wall_supply == 0 and empty_supplies(s) == 1 and s.announced == -1
    # ... then builds a loop around c4: the shorter part (c3/c4) goes back to the supply
    act(s, **USE_WALLS)
    wall(s, "b4/c4")
    wall(s, "c4/c5")
    wall(s, "c4/d4")
    assert s.wall_supply == 1 and empty_supplies(s) == 0
    # seat 1 draws its last chip: one empty supply, the wall supply holds a piece
    assert s.seat == 1
    act(s, **DRAW_CHIP)
    assert not any(s.passive[1]) and s.announced == -1
    # and then the piece that came back: two empty at once, seat 1 announces
    act(s, **DRAW_WALL)
    assert s.wall_supply == 0 and s.announced == 1


def test_two_passive_supplies_empty_end_it_while_walls_remain():
    s = end_state(3, passive={0: {"mongol": 1}, 1: {"mongol": 1}, 2: {"mongol": 3}})
    supply = s.wall_supply
    assert supply > 2
    act(s, **DRAW_CHIP)
    assert empty_supplies(s) == 1 and s.announced == -1
    act(s, **DRAW_WALL)
    act(s, **USE_WALLS)
    wall(s, "c3/d3")
    assert s.seat == 1
    act(s, **DRAW_CHIP)
    assert empty_supplies(s) == 2 and s.wall_supply > 0
    assert s.announced == 1 and not s.final
    # the announcer finishes the turn; one more round (seats 2, 0), seat 1 last
    order = []
    while not s.over:
        if not order or order[-1] != s.seat:
            order.append(s.seat)
        act(s, **E.legal_actions(s)[0])
    assert order == [1, 2, 0, 1] and s.final


def test_states_stored_with_the_old_wall_supply_flag_still_load():
    # Before this reading the state carried "walls_ran_out"; an old stored state
    # loads, the flag is dropped and the game goes on under the new reading.
    s = end_state(passive={0: {"mongol": 1}, 1: {"mongol": 3}}, wall_supply=1)
    old = {**json.loads(json.dumps(to_json(s))), "walls_ran_out": True}
    t = E.from_json(old)
    assert "walls_ran_out" not in E.to_json(t)
    assert E.to_json(t) == to_json(s)
    act(t, **DRAW_CHIP)
    assert t.announced == -1  # the old flag would have made it the second supply
    act(t, **DRAW_WALL)
    assert t.announced == 0
