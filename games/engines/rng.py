"""The engines' random generator: a random.Random whose whole state is one integer.

Bots copy game states thousands of times a second; copying a Mersenne
Twister state costs tens of microseconds, this one costs nothing. The core
is SplitMix64 (Steele, Lea & Flood 2014), pure integer arithmetic, so a
seed gives the same game on every machine and Python version. shuffle,
randrange, choice ... come from random.Random on top of getrandbits.
"""

from __future__ import annotations

import hashlib
import random

_MASK = (1 << 64) - 1


class GameRandom(random.Random):
    def __init__(self, seed: int | str = 0) -> None:
        self._s = 0
        super().__init__(seed)

    def seed(self, a=None, version: int = 2) -> None:  # noqa: ARG002 - signature of random.Random
        if isinstance(a, int) and 0 <= a <= _MASK:
            x = a
        else:  # negative or huge ints, strings ...: fold deterministically (no hash())
            x = int.from_bytes(hashlib.sha512(repr(a).encode()).digest()[:8], "big")
        self._s = x
        self.gauss_next = None

    def _next(self) -> int:
        self._s = z = (self._s + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

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
        # Lemire's multiply-and-reject: unbiased, one generator step per draw
        if n > _MASK:
            return self._randbelow_with_getrandbits(n)
        reject_below = ((1 << 64) - n) % n
        while True:
            self._s = z = (self._s + 0x9E3779B97F4A7C15) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            m = (z ^ (z >> 31)) * n
            if m & _MASK >= reject_below:
                return m >> 64

    def die(self) -> int:
        """One six-sided die."""
        return self._randbelow(6) + 1

    def random(self) -> float:
        return (self._next() >> 11) * (1.0 / (1 << 53))

    def getstate(self) -> tuple:
        return (self._s, self.gauss_next)

    def setstate(self, state) -> None:
        self._s, self.gauss_next = int(state[0]), state[1]

    def copy(self) -> GameRandom:
        r = GameRandom.__new__(GameRandom)
        r._s = self._s
        r.gauss_next = self.gauss_next
        return r

    def to_json(self) -> str:
        """The whole state as one hex string (lossless)."""
        return format(self._s, "016x")

    @classmethod
    def from_json(cls, data: str) -> GameRandom:
        r = cls.__new__(cls)
        r._s = int(data, 16)
        r.gauss_next = None
        return r

    def __reduce__(self):
        return (GameRandom, (0,), self.getstate())

    def __setstate__(self, state) -> None:  # pickling / copy.copy
        self.setstate(state)
