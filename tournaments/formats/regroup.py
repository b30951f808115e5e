"""Exact search for a multiplayer Swiss round without conflicting pairs.

A conflict is a pair of players who may not share a table without a cost: they
met before, or the organiser forbade it. ``conflict_free_grouping`` looks for a
partition of the players into tables of the given sizes with no conflicting pair
and, among those, the smallest summed spread of standings at a table (the
difference between the best and the worst rank seated together, the fast
method's second criterion).

Depth-first branch and bound. Players are bits of an integer; ``ok[i]`` holds
the players ``i`` may sit with. Each step seats the free player with the fewest
free partners left (fail first; the better ranked on ties, so an unconstrained
search works down the standings), trying its possible tables nearest in the
standings first, and backs up as soon as some free player can no longer fill a
table. The first grouping found is usually the greedy one; the rest of the
budget improves its spread. The budget counts search steps (not seconds), so
the result depends only on the input: the same round is paired the same way on
any machine.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

# search steps of the whole fallback for one round: about 0.3 s of CPU here
DEFAULT_BUDGET = 80_000


@dataclass
class SearchResult:
    tables: list[list[int]] | None  # None: no conflict-free grouping found
    spread: int  # summed spread of ``tables`` (0 when None)
    complete: bool  # the search finished: ``tables`` is optimal, or None proves there is none
    steps: int


def conflict_free_grouping(
    players: Sequence[int],
    sizes: Sequence[int],
    conflicts: Mapping[int, Collection[int]],
    rank: dict[int, int] | None = None,
    budget: int = DEFAULT_BUDGET,
    improve: bool = True,
    jitter: int = 0,
) -> SearchResult:
    """The conflict-free grouping of ``players`` into tables of ``sizes`` with least spread.

    ``conflicts``: per player, those it must not share a table with (others than
    ``players`` are ignored; the relation should be symmetric). ``rank``: standings position per player (default: the order of
    ``players``). ``improve=False`` stops at the first grouping found. ``jitter``
    > 0 shuffles the order the search tries players and tables in, by up to about
    that many places in the standings (a restart with another order, for the heavy
    tail of depth-first search: an order that is stuck for 100,000 steps is often
    solved in a hundred by another).
    """
    n = len(players)
    if sum(sizes) != n:
        raise ValueError("the table sizes must seat every player once")
    index = {p: i for i, p in enumerate(players)}
    ranks = [rank[p] for p in players] if rank is not None else list(range(n))
    search = _Search(
        _allowed(players, index, conflicts),
        sizes,
        ranks,
        _keys(ranks, jitter),
        budget,
        improve,
        jitter,
    )
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, len(sizes) + 200))  # one frame per table
    try:
        search.search((1 << n) - 1, 0, [])
    finally:
        sys.setrecursionlimit(old_limit)
    steps = min(search.tick[0], budget)
    if search.best is None:
        return SearchResult(None, 0, not search.exhausted, steps)
    tables = [sorted((players[i] for i in t), key=lambda p: ranks[index[p]]) for t in search.best]
    tables.sort(key=lambda t: ranks[index[t[0]]])
    return SearchResult(tables, int(search.best_cost), not search.stopped, steps)


def _keys(ranks: list[int], jitter: int) -> Sequence[float]:
    """The order the search tries players in: the standings, shuffled by up to ``jitter``."""
    if not jitter:
        return ranks
    # fixed pseudo-random offsets in [0, jitter): the result still depends on the input only
    return [r + ((i * 2_654_435_761 + jitter * 40_503) % 1_000_003) * jitter / 1_000_003
            for i, r in enumerate(ranks)]  # fmt: skip


def _allowed(
    players: Sequence[int], index: dict[int, int], conflicts: Mapping[int, Collection[int]]
) -> list[int]:
    """Per player index, the bit mask of the others it may sit with."""
    full = (1 << len(players)) - 1
    ok = [full & ~(1 << i) for i in range(len(players))]
    for i, a in enumerate(players):
        for b in conflicts.get(a, ()):
            j = index.get(b)
            if j is not None:
                ok[i] &= ~(1 << j)
                ok[j] &= ~(1 << i)
    return ok


def _bits(mask: int) -> list[int]:
    """The indices of the bits set in ``mask``, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


class _Search:
    """The branch and bound of ``conflict_free_grouping``: its state and its step."""

    def __init__(self, ok, sizes, ranks, keys, budget, improve, jitter) -> None:
        self.ok, self.ranks, self.keys = ok, ranks, keys
        self.budget, self.improve, self.jitter = budget, improve, jitter
        self.counts: dict[int, int] = {}  # tables still to fill, per size
        for s in sizes:
            self.counts[s] = self.counts.get(s, 0) + 1
        self.order = sorted(self.counts, reverse=True)
        self.best: list[list[int]] | None = None
        self.best_cost = float("inf")
        self.tick = [0]  # search steps: nodes and candidates looked at
        self.stopped = False  # the budget ran out, or the first grouping was enough
        self.exhausted = False

    def floor(self) -> int:
        """The least spread the tables still to fill can add."""
        return sum((s - 1) * c for s, c in self.counts.items())

    def _pick(self, free: int) -> tuple[int, int]:
        """The free player with the fewest free partners (the better ranked on ties) and
        that number; (-1, -1) when some free player can no longer fill a table."""
        smallest = min(s for s in self.order if self.counts[s])
        ok, keys = self.ok, self.keys
        pick, pick_count = -1, len(ok) + 1
        f = free
        while f:
            low = f & -f
            i = low.bit_length() - 1
            f ^= low
            c = (ok[i] & free).bit_count()
            if c < smallest - 1:
                return -1, -1  # this player can no longer fill a table
            if c < pick_count or (c == pick_count and keys[i] < keys[pick]):
                pick, pick_count = i, c
        return pick, pick_count

    def search(self, free: int, cost: int, chosen: list[list[int]]) -> None:
        tick = self.tick
        tick[0] += 1 + free.bit_count() // 8  # the scan in _pick looks at every free player
        if tick[0] > self.budget:
            self.stopped = self.exhausted = True
            return
        if not free:
            if cost < self.best_cost:
                self.best, self.best_cost = [list(t) for t in chosen], cost
                if not self.improve:
                    self.stopped = True
            return
        if cost + self.floor() >= self.best_cost:
            return
        p, pick_count = self._pick(free)
        if p < 0:
            return
        cand_mask = self.ok[p] & free
        keys = self.keys
        kp = keys[p]
        cands = sorted(_bits(cand_mask), key=lambda j: (abs(keys[j] - kp), keys[j]))
        for s in self.order:
            if not self.counts[s] or pick_count < s - 1:
                continue
            self.counts[s] -= 1
            rest_floor = self.floor()
            limit = self.best_cost - cost - rest_floor  # a table's spread must stay below this
            for members, spread in _tables(
                p, s, cands, cand_mask, self.ok, self.ranks, limit, self.tick, not self.jitter
            ):
                if self.tick[0] > self.budget:
                    self.stopped = self.exhausted = True
                    break
                if cost + spread + rest_floor >= self.best_cost:
                    continue  # best_cost fell since the generator started
                mask = 0
                for m in members:
                    mask |= 1 << m
                chosen.append(members)
                self.search(free & ~mask, cost + spread, chosen)
                chosen.pop()
                if self.stopped:
                    break
            self.counts[s] += 1
            if self.stopped:
                return


def _tables(p, size, cands, allowed, ok, ranks, limit, tick, nearest_first):
    """Tables of ``size`` seating ``p`` with members of ``cands`` who may all sit
    together, as (members, spread); only spreads below ``limit``. ``nearest_first``:
    ``cands`` are sorted by distance in the standings from ``p``. ``tick[0]`` counts
    the candidates looked at."""
    rp = ranks[p]

    def grow(start, members, mask, lo, hi):
        for k in range(start, len(cands)):
            if len(cands) - k < size - len(members):
                return
            j = cands[k]
            if not mask >> j & 1:
                continue
            tick[0] += 1
            r = ranks[j]
            if abs(r - rp) >= limit:
                if nearest_first:
                    return  # the candidates after j are farther still
                continue
            nlo, nhi = min(lo, r), max(hi, r)
            if nhi - nlo >= limit:
                continue
            members.append(j)
            if len(members) == size:
                yield list(members), nhi - nlo
            else:
                yield from grow(k + 1, members, mask & ok[j], nlo, nhi)
            members.pop()

    yield from grow(0, [p], allowed, rp, rp)
