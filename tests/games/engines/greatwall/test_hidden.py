"""Hidden information: who knows which face, observations, redaction, determinize."""

from __future__ import annotations

import json
import random
from collections import Counter

from games.engines.greatwall.constants import FACE_COUNTS, chip_face, chip_owner
from games.engines.testkit import check_contract, random_playout

from .builder import BOARD, E, build, lay, move

VILLAGE = {vid: i for i, vid in enumerate(BOARD.vids)}


def faces_seen(s, seat, vid):
    obs = E.observation(s, seat)
    return [c["chip"] for c in obs["villages"][VILLAGE[vid]]["stack"]]


def capture_state():
    """Seat 1 controls c3 (a Mongol under its peasant); seat 0 is about to step onto it."""
    return build(
        3,
        stacks={"c2": [(0, "peasant")], "c3": [(1, "mongol"), (1, "peasant")], "e5": [(2, "herb")]},
        scouts={0: "c2", 1: "e5", 2: "g5"},
        active={0: {"chinese": 2}},
        stage="use",
    )


def test_faces_are_known_to_the_owner_and_the_controller_only():
    s = capture_state()
    assert faces_seen(s, 1, "c3") == ["mongol", "peasant"]
    assert faces_seen(s, 0, "c3") == [None, None]
    assert faces_seen(s, 2, "c3") == [None, None]
    assert faces_seen(s, None, "c3") == [None, None]
    assert faces_seen(s, 0, "c2") == ["peasant"]
    obs = E.observation(s, 1)
    assert obs["villages"][VILLAGE["c3"]]["controller"] == 1
    assert [c["owner"] for c in obs["villages"][VILLAGE["c3"]]["stack"]] == [1, 1]


def test_taking_control_shows_the_stack_and_the_old_controller_keeps_what_it_saw():
    s = capture_state()
    E.apply(s, {"type": "use", "pieces": "chips"})
    move(s, "c3")
    lay(s, "chinese")
    assert faces_seen(s, 0, "c3") == ["mongol", "peasant", "chinese"]
    assert faces_seen(s, 1, "c3") == ["mongol", "peasant", None]  # remembers, not the new chip
    assert faces_seen(s, 2, "c3") == [None, None, None]


def test_at_the_end_every_stack_is_turned_over():
    s, _ = random_playout(E, 3, 4)
    assert s.over
    for seat in (0, 1, 2, None):
        obs = E.observation(s, seat)
        assert all(c["chip"] is not None for v in obs["villages"] for c in v["stack"])
        assert obs["scores"] == E.outcome(s)["scores"]
    # what was never laid stays hidden
    assert "active_chips" not in E.observation(s, 0)["players"][1]


def test_active_supplies_are_counts_for_the_others():
    s = capture_state()
    mine = E.observation(s, 0)["players"][0]
    theirs = E.observation(s, 1)["players"][0]
    assert mine["active_chips"] == {"chinese": 2}
    assert theirs["chips"] == 2 and "active_chips" not in theirs and "passive_chips" not in theirs


def test_laid_chips_are_redacted_in_the_log_for_everyone_else():
    lay_action = {"type": "lay", "chip": "plague"}
    assert E.redact_action(lay_action, 0, 0) == lay_action
    assert E.redact_action(lay_action, 0, 1) == {"type": "lay", "chip": "hidden"}
    assert E.redact_action(lay_action, 0, None) == {"type": "lay", "chip": "hidden"}
    setup = {"type": "setup", "village": "c2", "chip": "herb"}
    assert E.redact_action(setup, 1, 0) == {"type": "setup", "village": "c2", "chip": "hidden"}
    step = {"type": "move", "to": "c3", "gate": "c3/c4"}
    assert E.redact_action(step, 0, 1) == step
    s = capture_state()
    assert E.describe(s, E.redact_action(lay_action, 0, 1)) == "lay a chip"
    assert "plague" in E.describe(s, lay_action)


def test_drawing_a_chip_does_not_name_it():
    s = build(stacks={"c2": [(0, "peasant")]}, scouts={0: "c2"})
    assert E.describe(s, {"type": "draw", "supply": "chip"}) == "draw a chip"


def owner_faces(s, owner):
    count = Counter()
    for st in s.stacks:
        for c in st:
            if chip_owner(c) == owner:
                count[chip_face(c)] += 1
    for f in range(5):
        count[f] += s.active_chips[owner][f] + s.passive[owner][f] + s.lost[owner][f]
        if s.stage.startswith("setup") and s.seat == owner:
            count[f] += s.hand[f]
    return [count[f] for f in range(5)]


def mid_game(players=3, seed=8, plies=150):
    s, _ = random_playout(E, players, seed, max_steps=plies, allow_unfinished=True)
    return s


def test_determinize_keeps_what_the_seat_knows_and_conserves_chips():
    s = mid_game()
    for seat in range(s.n):
        obs = E.observation(s, seat)
        for k in range(5):
            world = E.determinize(s, seat, random.Random(k))
            assert E.observation(world, seat) == obs
            for owner in range(s.n):
                assert owner_faces(world, owner) == list(FACE_COUNTS)
            assert world.active_chips[seat] == s.active_chips[seat]
            assert world.passive[seat] == s.passive[seat]


def test_determinize_resamples_what_is_hidden_and_reseeds_the_generator():
    s = mid_game()
    worlds = [E.determinize(s, 0, random.Random(k)) for k in range(12)]
    hidden = {json.dumps([w.stacks, w.active_chips[1], w.passive[1]]) for w in worlds}
    assert len(hidden) > 1
    assert len({w.rng.getstate() for w in worlds}) == 12
    assert all(w.rng.getstate() != s.rng.getstate() for w in worlds)
    # the same rng state gives the same world
    a = E.determinize(s, 0, random.Random(5))
    b = E.determinize(s, 0, random.Random(5))
    assert E.to_json(a) == E.to_json(b)


def test_observation_is_plain_data_without_the_generator():
    s = mid_game()
    obs = E.observation(s, 1)
    text = json.dumps(obs)
    assert "rng" not in obs and str(s.rng.getstate()[0]) not in text
    assert E.observation(s, 1) == obs


def test_contract_holds_during_setup_and_mid_game():
    check_contract(E, E.new_game(players=4, seed=3), determinizations=3)
    check_contract(E, mid_game(4, 6, 60), determinizations=3)
    check_contract(E, capture_state(), determinizations=3)
