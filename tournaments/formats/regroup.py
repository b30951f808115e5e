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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# steps of the whole fallback for one round; about 0.3 s of CPU on a slow core
DEFAULT_BUDGET = 150_000


@dataclass
class SearchResult:
    tables: list[list[int]] | None  # None: no conflict-free grouping found
    spread: int  # summed spread of ``tables`` (0 when None)
    complete: bool  # the search finished: ``tables`` is optimal, or None proves there is none
    steps: int


def conflict_free_grouping(
    players: Sequence[int],
    sizes: Sequence[int],
    conflicts: Iterable[tuple[int, int]],
    rank: dict[int, int] | None = None,
    budget: int = DEFAULT_BUDGET,
    improve: bool = True,
) -> SearchResult:
    """The conflict-free grouping of ``players`` into tables of ``sizes`` with least spread.

    ``conflicts``: pairs that must not share a table (pairs naming other players
    are ignored). ``rank``: standings position per player (default: the order of
    ``players``). ``improve=False`` stops at the first grouping found.
    """
    n = len(players)
    if sum(sizes) != n:
        raise ValueError("the table sizes must seat every player once")
    index = {p: i for i, p in enumerate(players)}
    ranks = [rank[p] for p in players] if rank is not None else list(range(n))
    full = (1 << n) - 1
    ok = [full & ~(1 << i) for i in range(n)]
    for a, b in conflicts:
        i, j = index.get(a), index.get(b)
        if i is not None and j is not None:
            ok[i] &= ~(1 << j)
            ok[j] &= ~(1 << i)
    counts: dict[int, int] = {}
    for s in sizes:
        counts[s] = counts.get(s, 0) + 1
    order = sorted(counts, reverse=True)

    best: list[list[int]] | None = None
    best_cost = float("inf")
    tick = [0]  # search steps: nodes and candidates looked at
    stopped = False  # the budget ran out, or the first grouping was enough
    exhausted = False

    def floor(remaining: dict[int, int]) -> int:
        return sum((s - 1) * c for s, c in remaining.items())

    def search(free: int, cost: int, chosen: list[list[int]]) -> None:
        nonlocal best, best_cost, stopped, exhausted
        tick[0] += 1
        if tick[0] > budget:
            stopped = exhausted = True
            return
        if not free:
            if cost < best_cost:
                best, best_cost = [list(t) for t in chosen], cost
                if not improve:
                    stopped = True
            return
        if cost + floor(counts) >= best_cost:
            return
        smallest = min(s for s in order if counts[s])
        pick, pick_count = -1, n + 1
        f = free
        while f:
            low = f & -f
            i = low.bit_length() - 1
            f ^= low
            c = (ok[i] & free).bit_count()
            if c < smallest - 1:
                return  # this player can no longer fill a table
            if c < pick_count or (c == pick_count and ranks[i] < ranks[pick]):
                pick, pick_count = i, c
        p = pick
        rp = ranks[p]
        cand_mask = ok[p] & free
        cands = []
        f = cand_mask
        while f:
            low = f & -f
            j = low.bit_length() - 1
            f ^= low
            cands.append(j)
        cands.sort(key=lambda j: (abs(ranks[j] - rp), ranks[j]))
        for s in order:
            if not counts[s] or pick_count < s - 1:
                continue
            counts[s] -= 1
            rest_floor = floor(counts)
            limit = best_cost - cost - rest_floor  # a table's spread must stay below this
            for members, spread in _tables(p, s, cands, cand_mask, ok, ranks, limit, tick):
                if tick[0] > budget:
                    stopped = exhausted = True
                    break
                if cost + spread + rest_floor >= best_cost:
                    continue  # best_cost fell since the generator started
                mask = 0
                for m in members:
                    mask |= 1 << m
                chosen.append(members)
                search(free & ~mask, cost + spread, chosen)
                chosen.pop()
                if stopped:
                    break
            counts[s] += 1
            if stopped:
                return

    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, len(sizes) + 200))  # one frame per table
    try:
        search(full, 0, [])
    finally:
        sys.setrecursionlimit(old_limit)
    steps = min(tick[0], budget)
    if best is None:
        return SearchResult(None, 0, not exhausted, steps)
    tables = [sorted((players[i] for i in t), key=lambda p: ranks[index[p]]) for t in best]
    tables.sort(key=lambda t: ranks[index[t[0]]])
    return SearchResult(tables, int(best_cost), not stopped, steps)


def _tables(p, size, cands, allowed, ok, ranks, limit, tick):
    """Tables of ``size`` seating ``p`` with members of ``cands`` (nearest in the standings
    first) who may all sit together, as (members, spread); only spreads below ``limit``.
    ``tick[0]`` counts the candidates looked at."""
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
                return  # the candidates after j are farther still
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
