"""The game's random generator: a random.Random with a one-integer state.

A 64-bit linear congruential step (Knuth's MMIX constants) whose output goes
through a 64-bit finaliser (MurmurHash3's fmix64). Pure integer arithmetic,
so a seed gives the same game on every machine; copying it is free, which
matters because bots copy states many thousand times a second. shuffle,
randrange ... come from random.Random on top of getrandbits/_randbelow.
"""

from __future__ import annotations

import hashlib
import random

_MASK = (1 << 64) - 1
_MUL = 6364136223846793005
_INC = 1442695040888963407


class GameRandom(random.Random):
    def __init__(self, seed: int | str = 0) -> None:
        self._x = 0
        super().__init__(seed)

    def seed(self, a=None, version: int = 2) -> None:  # noqa: ARG002 - random.Random's signature
        if isinstance(a, int) and not isinstance(a, bool) and 0 <= a <= _MASK:
            x = a
        else:  # anything else is folded deterministically (never hash(): it is salted)
            x = int.from_bytes(hashlib.sha256(repr(a).encode()).digest()[:8], "big")
        self._x = x
        self.gauss_next = None

    def _next(self) -> int:
        self._x = x = (self._x * _MUL + _INC) & _MASK
        x ^= x >> 33
        x = (x * 0xFF51AFD7ED558CCD) & _MASK
        x ^= x >> 33
        x = (x * 0xC4CEB9FE1A85EC53) & _MASK
        return x ^ (x >> 33)

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        out = 0
        got = 0
        while got < k:
            out = (out << 64) | self._next()
            got += 64
        return out >> (got - k)

    def _randbelow(self, n: int) -> int:
        # rejection sampling on the top bits: unbiased
        k = n.bit_length()
        if k > 64:
            r = self.getrandbits(k)
            while r >= n:
                r = self.getrandbits(k)
            return r
        shift = 64 - k
        r = self._next() >> shift
        while r >= n:
            r = self._next() >> shift
        return r

    def die(self) -> int:
        """One six-sided die."""
        r = self._next() >> 61
        while r >= 6:
            r = self._next() >> 61
        return r + 1

    def random(self) -> float:
        return (self._next() >> 11) * (1.0 / (1 << 53))

    def getstate(self) -> tuple:
        return (self._x, self.gauss_next)

    def setstate(self, state) -> None:
        self._x, self.gauss_next = int(state[0]), state[1]

    def copy(self) -> GameRandom:
        r = GameRandom.__new__(GameRandom)
        r._x = self._x
        r.gauss_next = None
        return r

    def to_json(self) -> str:
        return format(self._x, "016x")

    @classmethod
    def from_json(cls, data: str) -> GameRandom:
        r = cls.__new__(cls)
        r._x = int(data, 16)
        r.gauss_next = None
        return r

    def __reduce__(self):
        return (GameRandom, (0,), self.getstate())

    def __setstate__(self, state) -> None:
        self.setstate(state)
