"""Property tests over many random games (2-4 players) plus the testkit contract checks.

The default run plays about a hundred games. More run only when asked:
``YSPAHAN_SLOW=1 YSPAHAN_GAMES=2000 pytest -m slow tests/games/engines/yspahan``
(YSPAHAN_GAMES also sizes the default run).
"""

import random

import pytest

from games.engines.testkit import check_game
from games.engines.yspahan import ENGINE as E
from games.engines.yspahan.board import BOARD
from games.engines.yspahan.constants import CARD_COUNTS
from games.engines.yspahan.state import STAGES
from tests.games.engines import properties as props

GAMES = props.game_count("YSPAHAN", 100)
SETTINGS = props.hypothesis_settings(GAMES)


def check_invariants(s) -> None:
    # 18 cards, 2 of each kind: in hands, the deck or played
    total = list(s.discard)
    for k in s.deck:
        total[k] += 1
    for h in s.hands:
        assert all(c >= 0 for c in h)
        total = [a + b for a, b in zip(total, h, strict=True)]
    assert total == list(CARD_COUNTS)
    # cubes: one per shop, one owner per souk, counts match the shops
    count = [0] * len(BOARD.souk_ids)
    owner = [-1] * len(BOARD.souk_ids)
    for shop, p in enumerate(s.shops):
        assert -1 <= p < s.n
        if p >= 0:
            k = BOARD.shop_souk[shop]
            assert owner[k] in (-1, p), "two players in one souk"
            owner[k] = p
            count[k] += 1
    assert count == s.souk_count and owner == s.souk_owner
    assert len(s.caravan) < s.capacity and all(0 <= p < s.n for p in s.caravan)
    assert all(x >= 0 for x in s.gold + s.camels + s.vp)
    assert all(all(b in (0, 1) for b in bs) for bs in s.built)
    if not s.over:
        assert s.stage in STAGES and 0 <= s.actor < s.n
        assert 1 <= s.week <= 3 and 1 <= s.day <= 7


PLAY_CARAVAN = {"type": "play", "card": "place_caravan"}


def cubes_out(s) -> list[int]:
    """Each player's cubes out of the supply: in shops and in the caravan."""
    out = [0] * s.n
    for p in s.shops:
        if p >= 0:
            out[p] += 1
    for p in s.caravan:
        out[p] += 1
    return out


def play_checked(players: int, seed: int, choice_seed: int):
    rng = random.Random(choice_seed)
    s = E.new_game(players=players, seed=seed)
    log = []
    days = {(s.week, s.day)}
    vp = list(s.vp)
    check_invariants(s)
    while not E.is_over(s):
        a = props.random_legal(E, s, rng)
        log.append(a)
        week = s.week
        actor = s.actor
        before_cubes = cubes_out(s)
        caravan_len = len(s.caravan)
        E.apply(s, a)
        check_invariants(s)
        if s.week == week and not s.over and len(s.caravan) >= caravan_len:
            # cubes come only from the supply and go back only when a caravan fills
            # up or a week ends
            gained = 1 if a["type"] in ("place", "pay") or a == PLAY_CARAVAN else 0
            expected = list(before_cubes)
            expected[actor] += gained
            assert cubes_out(s) == expected, a
        assert all(x >= y for x, y in zip(s.vp, vp, strict=True)), "points never go down"
        vp = list(s.vp)
        if not s.over and (s.week, s.day) not in days:
            days.add((s.week, s.day))
            assert s.stage == "yellow" and BOARD.cell_ids[s.supervisor] == "s10"
            if s.week != week:
                assert all(p < 0 for p in s.shops), "souks are cleared after a week"
        assert len(log) < 5000
        if rng.random() < 0.02:  # now and then: JSON and determinize
            props.assert_json_and_determinize(E, s, players, rng, check_invariants)
    assert len(days) == 21 and (s.week, s.day) == (3, 7)
    return s, log


def check_random_game(players: int, seed: int, choice_seed: int) -> None:
    s, log = play_checked(players, seed, choice_seed)
    out = E.outcome(s)
    assert out["scores"] == s.vp
    props.assert_competition_ranks(out["ranks"], s.vp)
    props.assert_replays(E, players, seed, log, s)


@SETTINGS
@props.random_games(max_players=4, max_seed=2**64)
def test_random_games(players, seed, choice_seed):
    check_random_game(players, seed, choice_seed)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_contract_with_the_testkit(players):
    check_game(E, players, 100 + players, every=11, determinizations=1)


@props.slow("YSPAHAN")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games(players):
    for i in range(max(GAMES, 600) // 3):
        check_random_game(players, 50_000 + i, i)


@props.slow("YSPAHAN")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_contract_many_games(players):
    for seed in range(4):
        check_game(E, players, seed, every=3, determinizations=2)
