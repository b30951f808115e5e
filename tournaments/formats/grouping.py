"""Partitioning players into tables so that a pair cost is small (local search).

Used by the multiplayer round robin / league schedule and by their repair mode.
Players are the indices 0..m-1 of a symmetric cost matrix. Each attempt builds a
greedy partition from a deterministic random start and improves it by swapping
two players of different tables, or moving one player between two tables whose
sizes differ by one (which keeps the multiset of sizes), while that lowers the
total cost. The best of a few attempts wins. Meant for a few hundred players.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

Matrix = Sequence[Sequence[float]]

EPS = 1e-9


def _greedy(m: int, sizes: Sequence[int], w: Matrix, rng: random.Random) -> list[list[int]]:
    pool = list(range(m))
    rng.shuffle(pool)
    tables: list[list[int]] = []
    for size in sizes:
        table = [pool.pop()]
        join = {p: w[p][table[0]] for p in pool}
        while len(table) < size:
            best = min(pool, key=lambda p: join[p])
            pool.remove(best)
            del join[best]
            table.append(best)
            for p in pool:
                join[p] += w[p][best]
        tables.append(table)
    return tables


def _improve(tables: list[list[int]], w: Matrix) -> None:
    t = len(tables)

    def sums(p: int, ti: int) -> float:
        row = w[p]
        return sum(row[x] for x in tables[ti] if x != p)

    improved = True
    while improved:
        improved = False
        for ti in range(t):
            for tj in range(ti + 1, t):
                a, b = tables[ti], tables[tj]
                changed = True
                while changed:
                    changed = False
                    sa = {p: sums(p, ti) for p in a}
                    sb = {p: sums(p, tj) for p in b}
                    ua = {p: sums(p, tj) for p in a}  # a-player's cost against all of b
                    vb = {p: sums(p, ti) for p in b}
                    best_delta, best_move = -EPS, None
                    for u in a:
                        for v in b:
                            delta = ua[u] - w[u][v] + vb[v] - w[v][u] - sa[u] - sb[v]
                            if delta < best_delta:
                                best_delta, best_move = delta, ("swap", u, v)
                    if len(a) == len(b) + 1:
                        for u in a:
                            delta = ua[u] - sa[u]
                            if delta < best_delta:
                                best_delta, best_move = delta, ("a->b", u, None)
                    elif len(b) == len(a) + 1:
                        for v in b:
                            delta = vb[v] - sb[v]
                            if delta < best_delta:
                                best_delta, best_move = delta, ("b->a", v, None)
                    if best_move is None:
                        break
                    kind, u, v = best_move
                    if kind == "swap":
                        a[a.index(u)] = v
                        b[b.index(v)] = u
                    elif kind == "a->b":
                        a.remove(u)
                        b.append(u)
                    else:
                        b.remove(u)
                        a.append(u)
                    changed = improved = True


def total_cost(tables: Sequence[Sequence[int]], w: Matrix) -> float:
    total = 0.0
    for table in tables:
        for i, a in enumerate(table):
            row = w[a]
            for b in table[i + 1 :]:
                total += row[b]
    return total


def partition(
    w: Matrix, sizes: Sequence[int], *, seed: int = 0, restarts: int = 3
) -> list[list[int]]:
    """Tables (lists of indices into ``w``) of the given sizes with a low total pair cost."""
    m = len(w)
    if sum(sizes) != m:
        raise ValueError("sizes must add up to the number of players")
    best: list[list[int]] | None = None
    best_cost = float("inf")
    for attempt in range(max(1, restarts)):
        rng = random.Random(seed * 1_000_003 + attempt)
        tables = _greedy(m, sizes, w, rng)
        _improve(tables, w)
        cost = total_cost(tables, w)
        if cost < best_cost - EPS:
            best, best_cost = tables, cost
            if cost <= EPS:
                break
    assert best is not None
    return best


def _even_split(met: Matrix) -> tuple[int, int, int]:
    """(pairs, lam, rem): the meetings spread as evenly as they can be are lam for
    every pair, plus one for rem of them."""
    n = len(met)
    npairs = n * (n - 1) // 2
    if npairs == 0:
        return 0, 0, 0
    total = sum(met[a][b] for a in range(n) for b in range(a + 1, n))
    return (npairs, *divmod(total, npairs))


class _Schedule:
    """The rounds of a schedule that have two tables or more, and the pair counts,
    changed together in place (``balance`` and ``even_out`` share the moves)."""

    def __init__(self, rounds: list[list[list[int]]], met: list[list[int]]) -> None:
        self.met = met
        self.rounds = [r for r in rounds if len(r) >= 2]
        # per movable round: player -> index of its table
        self.where = [{p: ti for ti, t in enumerate(r) for p in t} for r in self.rounds]

    def swap_delta(self, a: list[int], b: list[int], u: int, v: int) -> int:
        """Change of the sum of squared counts if u (table a) and v (table b) trade places."""
        mu, mv = self.met[u], self.met[v]
        return 2 * sum(mv[p] - mu[p] + 1 for p in a if p != u) + 2 * sum(
            mu[p] - mv[p] + 1 for p in b if p != v
        )

    def move_delta(self, a: list[int], b: list[int], u: int) -> int:
        """Change of the sum of squared counts if u leaves table a for table b."""
        mu = self.met[u]
        return sum(1 - 2 * mu[p] for p in a if p != u) + sum(2 * mu[p] + 1 for p in b)

    def _count(self, u: int, table: list[int], skip: int | None, by: int) -> None:
        met = self.met
        for p in table:
            if p != skip:
                met[u][p] += by
                met[p][u] += by

    def swap(self, ri: int, ia: int, ib: int, u: int, v: int) -> None:
        """u (table ia of movable round ri) and v (table ib) trade places."""
        a, b = self.rounds[ri][ia], self.rounds[ri][ib]
        self._count(u, a, u, -1)
        self._count(v, a, u, 1)
        self._count(v, b, v, -1)
        self._count(u, b, v, 1)
        a[a.index(u)] = v
        b[b.index(v)] = u
        self.where[ri][u], self.where[ri][v] = ib, ia

    def move(self, ri: int, ia: int, ib: int, u: int) -> None:
        """u leaves table ia of movable round ri for table ib."""
        a, b = self.rounds[ri][ia], self.rounds[ri][ib]
        a.remove(u)
        self._count(u, a, None, -1)
        self._count(u, b, None, 1)
        b.append(u)
        self.where[ri][u] = ib

    def snapshot(self) -> tuple[list[list[list[int]]], list[list[int]]]:
        return [[list(t) for t in r] for r in self.rounds], [row[:] for row in self.met]

    def restore(self, snapshot: tuple[list[list[list[int]]], list[list[int]]]) -> None:
        tables, counts = snapshot
        for r, saved in zip(self.rounds, tables, strict=True):
            r[:] = saved
        for row, saved_row in zip(self.met, counts, strict=True):
            row[:] = saved_row


def _squares(met: Matrix) -> int:
    n = len(met)
    return sum(met[a][b] ** 2 for a in range(n) for b in range(a + 1, n))


def _extremes(row: list[int], u: int, rng: random.Random) -> tuple[int, int]:
    """u's least- and most-met partners (not u), ties broken from a random start."""
    n = len(row)
    start = rng.randrange(n)
    rotated = row[start:] + row[:start]  # a random start spreads the ties
    own = (u - start) % n
    rotated[own] = 1 << 30
    low = (rotated.index(min(rotated)) + start) % n
    rotated[own] = -1
    high = (rotated.index(max(rotated)) + start) % n
    return low, high


def _targeted_swap(sched: _Schedule, rng: random.Random, lam: int, rem: int):
    """The best swap bringing a random player together with its least-met partner
    (or apart from its most-met one) in some random round, as (delta, ri, ia, ib, x, y)
    for ``sched.swap``; None when there is none or the player's counts are even."""
    n = len(sched.met)
    u = rng.randrange(n)
    row = sched.met[u]
    low, high = _extremes(row, u, rng)
    if row[low] < lam:
        w, together = low, True
    elif row[high] > lam + (1 if rem else 0):
        w, together = high, False
    else:
        return None
    order = list(range(len(sched.rounds)))
    rng.shuffle(order)
    for ri in order:
        wr = sched.where[ri]
        if u not in wr or w not in wr or (wr[u] == wr[w]) == together:
            continue
        rnd = sched.rounds[ri]
        options = []
        if together:
            ta, tb = wr[u], wr[w]
            for v in rnd[ta]:
                if v != u:  # w takes v's place at u's table
                    options.append((sched.swap_delta(rnd[tb], rnd[ta], w, v), ri, tb, ta, w, v))
        else:
            ta = wr[u]
            for tb, t in enumerate(rnd):
                if tb == ta:
                    continue
                for v in t:  # w leaves u's table for v's
                    options.append((sched.swap_delta(rnd[ta], t, w, v), ri, ta, tb, w, v))
        if options:
            return min(options, key=lambda o: (o[0], rng.random()))
    return None


def _random_change(sched: _Schedule, rng: random.Random, accept) -> int | None:
    """A random swap (or, now and then, a move to a table one seat smaller) in a random
    round, made if ``accept(delta)``; returns the delta made, None if refused."""
    ri = rng.randrange(len(sched.rounds))
    rnd = sched.rounds[ri]
    ia, ib = rng.sample(range(len(rnd)), 2)
    a, b = rnd[ia], rnd[ib]
    u = a[rng.randrange(len(a))]
    if len(a) == len(b) + 1 and rng.random() < 0.3:
        delta = sched.move_delta(a, b, u)
        if not accept(delta):
            return None
        sched.move(ri, ia, ib, u)
        return delta
    v = b[rng.randrange(len(b))]
    delta = sched.swap_delta(a, b, u, v)
    if not accept(delta):
        return None
    sched.swap(ri, ia, ib, u, v)
    return delta


def balance(
    rounds: list[list[list[int]]],
    met: list[list[int]],
    *,
    seed: int = 0,
    iterations: int = 20_000,
) -> bool:
    """Even out pair counts over a whole multi-round schedule (in place).

    ``rounds`` holds each round's tables (lists of players); ``met`` is the matching
    pair-count matrix and is kept up to date. Minimises the sum of squared pair
    counts (for a fixed total number of meetings it is smallest exactly when all
    counts are within one of each other) by changing tables within a round: swapping
    two players, or moving one between tables one seat apart. Half the steps are
    targeted (a player and its least- or most-met partner are brought together or
    split up in some round, the best such swap), half random. Sideways moves are
    taken, worse ones rarely; the best schedule seen is kept. Returns whether all
    counts ended within one of each other.
    """
    npairs, lam, rem = _even_split(met)
    if npairs == 0:
        return True
    best_possible = rem * (lam + 1) ** 2 + (npairs - rem) * lam**2
    current = _squares(met)
    if current == best_possible:
        return True
    sched = _Schedule(rounds, met)
    if not sched.rounds:
        return False
    rng = random.Random(seed)
    best = current
    snapshot = sched.snapshot()
    temperature = 0.35

    def accept(delta: int) -> bool:
        return delta <= 0 or rng.random() < math.exp(-delta / temperature)

    for step in range(iterations):
        if step % 2 == 0:
            found = _targeted_swap(sched, rng, lam, rem)
            if found is None or not accept(found[0]):
                continue
            delta, ri, ia, ib, x, y = found
            sched.swap(ri, ia, ib, x, y)
        else:
            delta = _random_change(sched, rng, accept)
            if delta is None:
                continue
        current += delta
        if current < best:
            best = current
            if current == best_possible:
                return True
            snapshot = sched.snapshot()
    sched.restore(snapshot)
    return best == best_possible


class _Uneven:
    """The pairs whose count is off the even spread (below lam or above top), kept
    up to date as players change tables."""

    def __init__(self, met: list[list[int]], lam: int, top: int) -> None:
        self.met, self.lam, self.top = met, lam, top
        n = len(met)
        self.pairs = {
            (a, b) for a in range(n) for b in range(a + 1, n) if not lam <= met[a][b] <= top
        }

    def recheck(self, u: int, others: list[int]) -> None:
        row = self.met[u]
        for p in others:
            if p != u:
                key = (u, p) if u < p else (p, u)
                if self.lam <= row[p] <= self.top:
                    self.pairs.discard(key)
                else:
                    self.pairs.add(key)


def _fixes(sched: _Schedule, x: int, y: int, together: bool, rounds: list[int]) -> list[tuple]:
    """Every change in ``rounds`` that brings x and y together (or splits them up):
    (delta, ri, ia, ib, u, v), u leaving table ia for ib in v's place (v None: a move)."""
    options = []
    for ri in rounds:
        rnd, wr = sched.rounds[ri], sched.where[ri]
        for u, w in ((x, y), (y, x)):  # u changes table
            ia = wr[u]
            a = rnd[ia]
            targets = [wr[w]] if together else [tb for tb in range(len(rnd)) if tb != ia]
            for ib in targets:
                b = rnd[ib]
                for v in b:
                    if v != w or not together:
                        options.append((sched.swap_delta(a, b, u, v), ri, ia, ib, u, v))
                if len(a) == len(b) + 1:
                    options.append((sched.move_delta(a, b, u), ri, ia, ib, u, None))
    return options


def _least_delta(options: list[tuple], tabu: dict, step: int, beats: int, rng: random.Random):
    """The option of least delta (ties: a coin toss along the list), leaving out those
    that move a tabu player unless their delta is below ``beats``."""
    chosen = None
    for option in options:
        delta, ri, _, _, u, v = option
        banned = tabu.get((ri, u), -1) > step or (v is not None and tabu.get((ri, v), -1) > step)
        if banned and delta >= beats:
            continue
        if chosen is None or delta < chosen[0] or (delta == chosen[0] and rng.random() < 0.5):
            chosen = option
    return chosen


def even_out(
    rounds: list[list[list[int]]],
    met: list[list[int]],
    *,
    seed: int = 0,
    iterations: int = 2_000,
    sample: int = 8,
) -> bool:
    """Bring every pair count within one of the others (in place): a tabu search.

    Where ``balance`` anneals on random and targeted swaps, this one works on what is
    wrong: each step takes a pair met too rarely (below total // pairs) or too often
    (above that plus one), looks at up to ``sample`` rounds where the pair could be
    brought together (or split up), and makes the best change that does it: a swap
    with a player of the other table, or a move to a table one seat smaller. The
    best change is made even when it makes things worse (that is how the search
    leaves a local minimum), except that a player moved in a round is not moved
    there again for a few steps unless that gives the best schedule yet. It finds
    +-1 schedules that annealing misses (5-seat tables: 13 players in 8 rounds, 18
    in 6). Returns whether it succeeded; if not, ``rounds`` and ``met`` hold the
    most even schedule seen (smallest sum of squared counts).
    """
    npairs, lam, rem = _even_split(met)
    if npairs == 0:
        return True
    sched = _Schedule(rounds, met)
    bad = _Uneven(met, lam, lam + (1 if rem else 0))
    if not bad.pairs:
        return True
    if not sched.rounds:
        return False
    rng = random.Random(seed)
    current = _squares(met)
    best = current
    snapshot = sched.snapshot()
    tabu: dict[tuple[int, int], int] = {}
    for step in range(iterations):
        x, y = rng.choice(tuple(bad.pairs))
        together = met[x][y] < lam
        eligible = [
            ri for ri, wr in enumerate(sched.where)
            if x in wr and y in wr and (wr[x] != wr[y]) == together
        ]  # fmt: skip
        if len(eligible) > sample:
            eligible = rng.sample(eligible, sample)
        options = _fixes(sched, x, y, together, eligible)
        chosen = _least_delta(options, tabu, step, best - current, rng)
        if chosen is None:
            continue
        delta, ri, ia, ib, u, v = chosen
        rnd = sched.rounds[ri]
        seated = rnd[ia] + rnd[ib]  # the players whose counts change
        if v is None:
            sched.move(ri, ia, ib, u)
        else:
            sched.swap(ri, ia, ib, u, v)
        bad.recheck(u, seated)
        if v is not None:
            bad.recheck(v, seated)
        current += delta
        tabu[(ri, u)] = step + rng.randint(3, 10)
        if v is not None:
            tabu[(ri, v)] = step + rng.randint(3, 10)
        if not bad.pairs:
            return True
        if current < best:
            best = current
            snapshot = sched.snapshot()
    sched.restore(snapshot)
    return False
