"""Property tests over many random games (2-4 players).

The default run plays GREATWALL_GAMES (200) hypothesis games with invariant
checks after every decision, plus a few full contract checks (testkit). The
`slow` test plays many more, GREATWALL_GAMES in all (at least 600) over 2, 3
and 4 players, with a testkit contract check every 20th game:
``GREATWALL_SLOW=1 GREATWALL_GAMES=2000 pytest -m slow tests/games/engines/greatwall``.
"""

from __future__ import annotations

import random

import pytest

from games.engines.greatwall import ENGINE as E
from games.engines.greatwall.constants import (
    ACTIVE_LIMIT,
    CHIPS_PER_PLAYER,
    FACE_COUNTS,
    OPEN,
    ROUND_LIMIT,
    WALL_PIECES,
    chip_face,
    chip_owner,
)
from games.engines.greatwall.moves import blocked_mask, is_step, steps
from games.engines.greatwall.scoring import village_points
from games.engines.greatwall.state import DECISION_STAGES
from games.engines.greatwall.walls import can_place, placeable, tree_path
from games.engines.testkit import check_game
from tests.games.engines import properties as props

BOARD = E.board
GAMES = props.game_count("GREATWALL", 200)
SETTINGS = props.hypothesis_settings(GAMES)


def check_invariants(s) -> None:
    n = s.n
    # chips: 17 per player, 5/5/5/1/1 by face, wherever they are
    for p in range(n):
        count = [0] * 5
        for stack in s.stacks:
            for c in stack:
                if chip_owner(c) == p:
                    count[chip_face(c)] += 1
                    assert c >> 5 >> p & 1  # the owner knows its chips
        for f in range(5):
            count[f] += s.active_chips[p][f] + s.passive[p][f] + s.lost[p][f]
            if s.stage in ("setup_chip", "setup_scout") and s.seat == p:
                count[f] += s.hand[f]
        assert count == list(FACE_COUNTS), (p, count)
        assert sum(count) == CHIPS_PER_PLAYER
        assert min(s.active_chips[p] + s.passive[p] + s.lost[p]) >= 0
        assert sum(s.active_chips[p]) <= ACTIVE_LIMIT and 0 <= s.active_walls[p] <= ACTIVE_LIMIT
    # the top chip's owner has seen the whole stack
    for stack in s.stacks:
        if stack:
            top = chip_owner(stack[-1])
            assert all(c >> 5 >> top & 1 for c in stack)
    # wall pieces: 28 in all
    on = [x for x, w in enumerate(s.walls) if w]
    assert len(on) + s.wall_supply + sum(s.active_walls) + s.walls_out == WALL_PIECES
    assert s.wall_supply >= 0 and s.walls_out >= 0
    # one tree of pieces, touching the rim at exactly two towers; the Great Wall is
    # the path between them and the sides differ exactly across it
    towers = {t for x in on for t in BOARD.line_towers[x]}
    assert len(towers) == len(on) + 1
    rims = sorted(t for t in towers if BOARD.tedge[t])
    assert len(rims) == 2
    path = tree_path(s, BOARD, rims[0], rims[1])
    assert sorted(path) == sorted(s.great_wall) and len(set(path)) == len(path)
    gw = set(path)
    for a, out in enumerate(BOARD.nbrs):
        for b, line, _road in out:
            assert (s.side[a] != s.side[b]) == (line in gw)
    assert len(set(s.side)) == 2
    # scouts: never two in one village
    placed = [v for v in s.scouts if v >= 0]
    assert len(placed) == len(set(placed))
    if not s.over:
        assert s.stage in DECISION_STAGES, s.stage
        assert 0 <= s.seat < n


def check_generation_matches_validation(s) -> None:
    """Steps and wall placements: the listed ones validate, no other one does."""
    if s.stage == "move":
        v = s.scouts[s.seat]
        blocked = blocked_mask(s, s.seat)
        listed = set(steps(s, BOARD, v, blocked))
        open_lines = [x for x, w in enumerate(s.walls) if w == OPEN]
        vias = [()] + [(x,) for x in range(BOARD.num_lines)]
        vias += [(p, q) for p in open_lines for q in open_lines]
        for to in range(len(BOARD.vids)):
            for via in vias:
                assert is_step(s, BOARD, v, blocked, to, via) == ((to, via) in listed)
    if s.stage == "wall":
        listed = set(placeable(s, BOARD))
        assert listed
        for line in range(BOARD.num_lines):
            assert can_place(s, BOARD, line) == (line in listed)


def empty_now(s) -> int:
    """Supplies empty at this moment, counted here independently of the engine: the
    common wall supply while it holds no piece, and every empty passive supply."""
    return (s.wall_supply == 0) + sum(1 for p in s.passive if sum(p) == 0)


def check_end_trigger(s, before, seat: int, action: dict) -> None:
    """The end is announced exactly when a draw leaves two supplies empty at once
    (or by the round-limit safeguard); never while fewer than two are empty."""
    announced_before, round_before = before
    if announced_before >= 0:
        assert s.announced == announced_before
        return
    if s.announced < 0:
        assert empty_now(s) < 2
        return
    if empty_now(s) >= 2:
        assert action["type"] == "draw" and s.announced == seat
    else:  # the safeguard: the last seat of the ROUND_LIMIT-th round
        assert round_before < ROUND_LIMIT <= s.round
        assert s.announced == s.n - 1 and s.final


def play_checked(players: int, seed: int, choice_seed: int):
    rng = random.Random(choice_seed)
    s = E.new_game(players=players, seed=seed)
    log = []
    check_invariants(s)
    while not E.is_over(s):
        a = props.random_legal(E, s, rng)
        log.append(a)
        before, seat = (s.announced, s.round), s.seat
        E.apply(s, a)
        check_invariants(s)
        check_end_trigger(s, before, seat, a)
        assert len(log) < 5000
        r = rng.random()
        if r < 0.03:
            check_generation_matches_validation(s)
        elif r < 0.05:
            props.assert_json_and_determinize(E, s, players, rng, check_invariants)
    return s, log


def check_random_game(players: int, seed: int, choice_seed: int) -> None:
    s, log = play_checked(players, seed, choice_seed)
    assert s.announced >= 0 and s.final
    out = E.outcome(s)
    expected = [0] * players
    for v, stack in enumerate(s.stacks):
        if stack:
            expected[chip_owner(stack[-1])] += village_points(
                [chip_face(c) for c in stack], s.side[v]
            )
    assert out["scores"] == expected
    props.assert_competition_ranks(out["ranks"], expected)
    # replaying the log from the seed gives the same game
    props.assert_replays(E, players, seed, log, s)


@SETTINGS
@props.random_games(max_players=4)
def test_random_games(players, seed, choice_seed):
    check_random_game(players, seed, choice_seed)


@pytest.mark.parametrize(("players", "seed"), [(p, s) for p in (2, 3, 4) for s in (1, 2)])
def test_the_testkit_contract_checks(players, seed):
    check_game(E, players, seed=100 * seed + players, every=5, determinizations=2)


@props.slow("GREATWALL")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games(players):
    # GREATWALL_GAMES games in all (at least 600), shared out over the player counts
    total = max(GAMES, 600)
    for i in range(total // 3 + (players - 2 < total % 3)):
        check_random_game(players, 50_000 + i, i)
        if i % 20 == 0:
            check_game(E, players, seed=90_000 + i, every=40, determinizations=1)
