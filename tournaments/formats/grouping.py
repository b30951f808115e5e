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
    n = len(met)
    npairs, lam, rem = _even_split(met)
    if npairs == 0:
        return True
    best_possible = rem * (lam + 1) ** 2 + (npairs - rem) * lam**2
    current = sum(met[a][b] ** 2 for a in range(n) for b in range(a + 1, n))
    if current == best_possible:
        return True
    movable = [r for r in rounds if len(r) >= 2]
    if not movable:
        return False
    where = [{p: ti for ti, t in enumerate(r) for p in t} for r in movable]
    rng = random.Random(seed)
    best = current
    snapshot = ([[list(t) for t in r] for r in movable], [row[:] for row in met])
    temperature = 0.35

    def swap_delta(a: list[int], b: list[int], u: int, v: int) -> int:
        mu, mv = met[u], met[v]
        return 2 * sum(mv[p] - mu[p] + 1 for p in a if p != u) + 2 * sum(
            mu[p] - mv[p] + 1 for p in b if p != v
        )

    def do_swap(ri: int, ia: int, ib: int, u: int, v: int) -> None:
        a, b = movable[ri][ia], movable[ri][ib]
        for p in a:
            if p != u:
                met[u][p] -= 1
                met[p][u] -= 1
                met[v][p] += 1
                met[p][v] += 1
        for p in b:
            if p != v:
                met[v][p] -= 1
                met[p][v] -= 1
                met[u][p] += 1
                met[p][u] += 1
        a[a.index(u)] = v
        b[b.index(v)] = u
        where[ri][u], where[ri][v] = ib, ia

    def accept(delta: int) -> bool:
        return delta <= 0 or rng.random() < math.exp(-delta / temperature)

    for step in range(iterations):
        if step % 2 == 0:
            # targeted: a player and its least- (or most-) met partner
            u = rng.randrange(n)
            row = met[u]
            start = rng.randrange(n)
            rotated = row[start:] + row[:start]  # a random start spreads the ties
            own = (u - start) % n
            saved = rotated[own]
            rotated[own] = 1 << 30
            low = (rotated.index(min(rotated)) + start) % n
            rotated[own] = -1
            high = (rotated.index(max(rotated)) + start) % n
            rotated[own] = saved
            if row[low] < lam:
                w, together = low, True
            elif row[high] > lam + (1 if rem else 0):
                w, together = high, False
            else:
                continue
            order = list(range(len(movable)))
            rng.shuffle(order)
            found = None
            for ri in order:
                wr = where[ri]
                if u not in wr or w not in wr or (wr[u] == wr[w]) == together:
                    continue
                rnd = movable[ri]
                options = []
                if together:
                    ta, tb = wr[u], wr[w]
                    for v in rnd[ta]:
                        if v != u:  # w takes v's place at u's table
                            options.append((swap_delta(rnd[tb], rnd[ta], w, v), ri, tb, ta, w, v))
                else:
                    ta = wr[u]
                    for tb, t in enumerate(rnd):
                        if tb == ta:
                            continue
                        for v in t:  # w leaves u's table for v's
                            options.append((swap_delta(rnd[ta], t, w, v), ri, ta, tb, w, v))
                if options:
                    found = min(options, key=lambda o: (o[0], rng.random()))
                    break
            if found is None or not accept(found[0]):
                continue
            delta, ri, ia, ib, x, y = found
            do_swap(ri, ia, ib, x, y)
            current += delta
        else:
            ri = rng.randrange(len(movable))
            rnd = movable[ri]
            ia, ib = rng.sample(range(len(rnd)), 2)
            a, b = rnd[ia], rnd[ib]
            u = a[rng.randrange(len(a))]
            if len(a) == len(b) + 1 and rng.random() < 0.3:
                mu = met[u]
                delta = sum(1 - 2 * mu[p] for p in a if p != u) + sum(2 * mu[p] + 1 for p in b)
                if not accept(delta):
                    continue
                a.remove(u)
                for p in a:
                    met[u][p] -= 1
                    met[p][u] -= 1
                for p in b:
                    met[u][p] += 1
                    met[p][u] += 1
                b.append(u)
                where[ri][u] = ib
                current += delta
            else:
                v = b[rng.randrange(len(b))]
                delta = swap_delta(a, b, u, v)
                if not accept(delta):
                    continue
                do_swap(ri, ia, ib, u, v)
                current += delta
        if current < best:
            best = current
            if current == best_possible:
                return True
            snapshot = ([[list(t) for t in r] for r in movable], [row[:] for row in met])
    tables, counts = snapshot
    for r, saved in zip(movable, tables, strict=True):
        r[:] = saved
    for row, saved_row in zip(met, counts, strict=True):
        row[:] = saved_row
    return best == best_possible


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
    n = len(met)
    npairs, lam, rem = _even_split(met)
    if npairs == 0:
        return True
    top = lam + (1 if rem else 0)
    movable = [r for r in rounds if len(r) >= 2]
    where = [{p: ti for ti, t in enumerate(r) for p in t} for r in movable]
    bad = {(a, b) for a in range(n) for b in range(a + 1, n) if not lam <= met[a][b] <= top}
    if not bad:
        return True
    if not movable:
        return False
    rng = random.Random(seed)
    current = sum(met[a][b] ** 2 for a in range(n) for b in range(a + 1, n))
    best = current
    snapshot = ([[list(t) for t in r] for r in movable], [row[:] for row in met])
    tabu: dict[tuple[int, int], int] = {}

    def recheck(u: int, others) -> None:
        row = met[u]
        for p in others:
            if p != u:
                key = (u, p) if u < p else (p, u)
                if lam <= row[p] <= top:
                    bad.discard(key)
                else:
                    bad.add(key)

    def swap_delta(a: list[int], b: list[int], u: int, v: int) -> int:
        mu, mv = met[u], met[v]
        return 2 * sum(mv[p] - mu[p] + 1 for p in a if p != u) + 2 * sum(
            mu[p] - mv[p] + 1 for p in b if p != v
        )

    def move_delta(a: list[int], b: list[int], u: int) -> int:
        mu = met[u]
        return sum(1 - 2 * mu[p] for p in a if p != u) + sum(2 * mu[p] + 1 for p in b)

    def change(ri: int, ia: int, ib: int, u: int, v: int | None) -> None:
        """u leaves table ia for ib, taking v's place there (v goes to ia), or just moves."""
        a, b = movable[ri][ia], movable[ri][ib]
        before_a, before_b = list(a), list(b)
        for p in a:
            if p != u:
                met[u][p] -= 1
                met[p][u] -= 1
                if v is not None:
                    met[v][p] += 1
                    met[p][v] += 1
        for p in b:
            if p != v:
                met[u][p] += 1
                met[p][u] += 1
                if v is not None:
                    met[v][p] -= 1
                    met[p][v] -= 1
        if v is None:
            a.remove(u)
            b.append(u)
        else:
            a[a.index(u)] = v
            b[b.index(v)] = u
            where[ri][v] = ia
        where[ri][u] = ib
        recheck(u, before_a + before_b)
        if v is not None:
            recheck(v, before_a + before_b)

    for step in range(iterations):
        x, y = rng.choice(tuple(bad))
        together = met[x][y] < lam
        eligible = [
            ri for ri, wr in enumerate(where)
            if x in wr and y in wr and (wr[x] != wr[y]) == together
        ]  # fmt: skip
        if len(eligible) > sample:
            eligible = rng.sample(eligible, sample)
        options = []
        for ri in eligible:
            rnd, wr = movable[ri], where[ri]
            for u, w in ((x, y), (y, x)):  # u changes table
                ia = wr[u]
                a = rnd[ia]
                targets = [wr[w]] if together else [tb for tb in range(len(rnd)) if tb != ia]
                for ib in targets:
                    b = rnd[ib]
                    for v in b:
                        if v != w or not together:
                            options.append((swap_delta(a, b, u, v), ri, ia, ib, u, v))
                    if len(a) == len(b) + 1:
                        options.append((move_delta(a, b, u), ri, ia, ib, u, None))
        chosen = None
        for option in options:
            delta, ri, _, _, u, v = option
            banned = tabu.get((ri, u), -1) > step or (
                v is not None and tabu.get((ri, v), -1) > step
            )
            if banned and current + delta >= best:
                continue
            if chosen is None or delta < chosen[0] or (delta == chosen[0] and rng.random() < 0.5):
                chosen = option
        if chosen is None:
            continue
        delta, ri, ia, ib, u, v = chosen
        change(ri, ia, ib, u, v)
        current += delta
        tabu[(ri, u)] = step + rng.randint(3, 10)
        if v is not None:
            tabu[(ri, v)] = step + rng.randint(3, 10)
        if not bad:
            return True
        if current < best:
            best = current
            snapshot = ([[list(t) for t in r] for r in movable], [row[:] for row in met])
    tables, counts = snapshot
    for r, saved in zip(movable, tables, strict=True):
        r[:] = saved
    for row, saved_row in zip(met, counts, strict=True):
        row[:] = saved_row
    return False
