"""Property tests over many random games (2-5 players, random options).

The default run plays a few hundred games. The `slow` test plays thousands
and runs only when asked: ``SILKROAD_SLOW=1 SILKROAD_GAMES=5000 pytest -m slow
tests/games/engines/silkroad`` (SILKROAD_GAMES also sizes the default run).
"""

import random
from collections import Counter

import pytest

from games.engines.silkroad import ENGINE as E
from games.engines.silkroad.constants import ACTION_KINDS
from games.engines.silkroad.state import DECISION_STAGES
from tests.games.engines import properties as props

GAMES = props.game_count("SILKROAD", 200)
SETTINGS = props.hypothesis_settings(GAMES)


def independent_score(gems: list[int], colourless: int, tokens: int) -> int:
    """Scoring re-derived another way: peel off one gem of every colour still held."""
    left = list(gems)
    points = 0
    while any(left):
        size = sum(1 for k in left if k > 0)
        points += size * (size + 1) // 2  # 1, 3, 6, 10, 15
        left = [k - 1 if k > 0 else 0 for k in left]
    return points + 2 * colourless + 8 * tokens


def check_invariants(s) -> None:
    # 70 goods cards, 14 of each
    cards = Counter()
    for p in range(s.n):
        for g in range(5):
            cards[g] += s.hands[p][g] + s.fields[p][g]
    for g in range(5):
        cards[g] += s.display[g]
    cards.update(s.deck)
    cards.update(s.discard)
    assert [cards[g] for g in range(5)] == [14] * 5
    assert all(k >= 0 for p in range(s.n) for k in s.hands[p] + s.fields[p])
    assert sum(s.display) <= 3
    # 20 coloured gems, 4 of each colour; 10 colourless
    for c in range(5):
        total = s.bag.count(c) + s.removed_seen[c] + s.removed_unseen[c]
        total += sum(s.city_gems[k][c] for k in range(6)) + sum(s.gems[p][c] for p in range(s.n))
        assert total == 4
    assert s.colourless_supply + sum(s.colourless) == 10
    assert all(0 <= k <= 2 for k in s.colourless) and s.colourless_supply >= 0
    # 10 camels, each exactly once; caravans hold their size; one caravan per space
    camels = list(s.queue)
    spaces = []
    for size in (1, 2, 3):
        c = s.caravans[size]
        if c is not None:
            assert len(c.camels) == size
            camels += c.camels
            spaces.append(c.pos)
            assert c.pos == c.target or any(s.city_gems[c.target]) or s.market is not None
    assert sorted(camels) == list(range(1, 11))
    assert len(spaces) == len(set(spaces))
    assert sorted(s.drivers) == sorted(set(s.drivers)) and all(1 <= d <= 5 for d in s.drivers)
    if not s.over:
        assert s.stage in DECISION_STAGES
        assert 0 <= s.actor < s.n
        assert s.caravans.count(None) <= 3  # at least one caravan until the end


def random_options(rng: random.Random) -> dict:
    if rng.random() < 0.6:
        return {}
    counts = [0] * len(ACTION_KINDS)
    for _ in range(22):
        counts[rng.randrange(len(ACTION_KINDS))] += 1
    return {"board_side": "blank", "tile_mix": dict(zip(ACTION_KINDS, counts, strict=True))}


def play_checked(players: int, seed: int, choice_seed: int):
    rng = random.Random(choice_seed)
    options = random_options(rng)
    s = E.new_game(players=players, seed=seed, options=options)
    log = []
    check_invariants(s)
    while not E.is_over(s):
        a = props.random_legal(E, s, rng)
        log.append(a)
        E.apply(s, a)
        check_invariants(s)
        assert len(log) < 3000
        if rng.random() < 0.02:  # now and then: JSON and determinize
            props.assert_json_and_determinize(E, s, players, rng, check_invariants)
    return s, options, log


def check_game(players: int, seed: int, choice_seed: int) -> None:
    s, options, log = play_checked(players, seed, choice_seed)
    out = E.outcome(s)
    expected = [independent_score(s.gems[p], s.colourless[p], s.tokens[p]) for p in range(players)]
    assert out["scores"] == expected
    order = sorted(range(players), key=lambda p: (-expected[p], -s.drivers[p]))
    assert [out["ranks"][p] for p in order] == list(range(1, players + 1))
    # replaying the log from the seed gives the same game
    props.assert_replays(E, players, seed, log, s, options)


@SETTINGS
@props.random_games(max_players=5)
def test_random_games(players, seed, choice_seed):
    check_game(players, seed, choice_seed)


@props.slow("SILKROAD")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_random_games(players):
    for i in range(max(GAMES, 1000) // 4):
        check_game(players, 10_000 + i, i)
