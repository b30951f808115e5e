"""The shared engine generator: seeded, copyable, a random.Random."""

import random
from collections import Counter

from games.engines.rng import GameRandom


def test_the_generator_is_a_seeded_random_random():
    r = GameRandom(5)
    assert isinstance(r, random.Random)
    seq = [r.randrange(10) for _ in range(20)]
    r2 = GameRandom(5)
    assert [r2.randrange(10) for _ in range(20)] == seq
    r3 = GameRandom()
    r3.setstate(r.getstate())
    assert r3.random() == r.random()
    assert GameRandom("x").getstate() == GameRandom("x").getstate()
    g = GameRandom(1)
    counts = Counter(g.randrange(6) for _ in range(6000))
    assert sorted(counts) == list(range(6))
    assert min(counts.values()) > 800


def test_copy_continues_the_same_sequence():
    r = GameRandom(9)
    r.random()
    c = r.copy()
    assert [c.random() for _ in range(5)] == [r.random() for _ in range(5)]
