"""Round robin (single or double); the league reuses it (``league.py``).

Schedule
--------
The schedule is fixed in advance from the entrant list in seeding order
(``common.seeding_order``); results never change it.

- Two seats: the circle (Berger) method. n even: n-1 rounds; n odd: n rounds with
  one bye per round (each entrant exactly one bye). Seat 0 alternates so that
  every entrant has seat 0 in half its games (rounded up or down). Double: the
  single schedule twice, the second time with the seats swapped, so that every
  pair meets once from each side.
- Three to five seats (k): every round seats everyone at tables of k (some one
  seat smaller when the count doesn't divide, see ``common.table_sizes``; byes only
  when even that is impossible, to whoever had the fewest byes, so byes differ by
  at most one). Number of rounds, the "+-1 rule" and how they are found:
  * L = the fewest rounds in which every pair could meet at least once (twice when
    double): the larger of ceil((n-1)/(k-1)) (x2) and (pairs x times) / (pairs
    brought together per round).
  * For each length R = L, L+1, ... up to max(L+4, 1.5 L): a greedy schedule (each
    round a local search bringing together the pairs that met least so far) is
    evened out by a search over the whole schedule that minimises the sum of
    squared pair counts (``grouping.balance``). The first R at which every pair
    meets at least once (twice) and all pair counts are within one of each other
    is used: that is the +-1 rule, found this way for 3 and 4 seats for every n up
    to 65 (checked by the slow tests); e.g. 16 entrants at 4 seats: 5 rounds,
    everyone meets everyone exactly once; 10 at 4 seats: 5 rounds.
  * Otherwise (only with 5 seats, where annealing gets stuck or no such schedule
    exists that short) a tabu search that works on the pairs met too rarely or too
    often (``grouping.even_out``) tries every length from L up to two rounds past
    where the greedy alone covers every pair (lengths the fallback below uses
    anyway), from the greedy schedule; the first +-1 schedule is used. With it
    5 seats keep the +-1 rule for every n up to 65 except, single: 9, 10, 15, 20,
    30, 45; double: 9, 10, 15, 20, 25, 30, 35, 40, 50 (e.g. 13 entrants: 8 rounds,
    every pair meets 2 or 3 times; 18: 6 rounds). 9 and 10 have no +-1 schedule
    below 14 and 17 rounds (every pair would meet 6-7 / 7-8 times; the reasons are
    in the tests); the others are multiples of 5, all tables full, where none was
    found that short.
  * For those, the most even covering schedule of a few lengths past the covering
    one wins (fewest uncovered pairs, then smallest spread, then fewest rounds):
    every pair meets at least once (twice) and counts are within two.
  The schedule depends only on (n, k, smallest table, double) and is cached; for
  65 entrants it takes up to a few seconds of CPU to build the first time (5 seats,
  every n from 4 to 65 single and double: about 40 s in all on a busy 2-core machine).
  Seats: each table's seat order is the permutation that least repeats seats its
  players already had, revisited with the whole schedule known, so everybody sits
  at each seat about equally often (counts within one, occasionally two).

Withdrawals and late entries
----------------------------
Scheduled tables keep only the entrants active in that round. A two-seat table
that loses a player (or a larger table that drops below ``Config.smallest_table``)
turns its remaining players into byes (a walkover). A late entrant simply misses
the tables scheduled before it joins, and an entrant withdrawn misses the rest.

If the entrant list changes after the start (an entrant added or removed), the
rounds already played no longer match the schedule computed from the new list.
Then the format switches to *repair mode*: every further round is built from the
history so that pairs of currently active entrants that have met fewer times than
required (1, or 2 when double) meet; two seats: a maximum matching of those
pairs (entrants left out sit out, without a bye); more seats: everybody active
plays, at tables chosen as above. It ends when no such pair remains.

Round robin and league ignore ``Config.forbidden``: every pair has to meet.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import networkx as nx

from .common import (
    History,
    active_ids,
    assign_seats,
    check_common,
    check_played,
    pair,
    ranking_from_standings,
    seeding_order,
    table_sizes,
)
from .grouping import balance, even_out, partition
from .types import Config, Entrant, Round, Table

# A schedule over seeding indices: rounds of (tables in seat order, byes).
Schedule = tuple[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], ...]


@lru_cache(maxsize=256)
def circle_schedule(n: int, double: bool = False) -> Schedule:
    """Two-seat round robin for players 0..n-1 (0 = top seed)."""
    if n < 2:
        return ()
    size = n + (n % 2)  # with a dummy (index n) when odd: its opponent has the bye
    fixed = size - 1
    rounds = []
    for r in range(size - 1):
        tables: list[tuple[int, int]] = []
        byes: list[int] = []
        first = (r, fixed) if r % 2 == 0 else (fixed, r)
        pairs = [first]
        for i in range(1, size // 2):
            a = (r + i) % (size - 1)
            b = (r - i) % (size - 1)
            pairs.append((a, b) if i % 2 == 1 else (b, a))
        for a, b in pairs:
            if a >= n:
                byes.append(b)
            elif b >= n:
                byes.append(a)
            else:
                tables.append((a, b))
        rounds.append((tuple(tables), tuple(byes)))
    if double:
        rounds += [(tuple((b, a) for a, b in tables), byes) for tables, byes in rounds]
    return tuple(rounds)


def _multi_groups(
    met: list[list[int]], byes: list[int], size: int, smallest: int, seed: int, restarts: int = 2
) -> tuple[list[list[int]], list[int]]:
    """One round's tables (unordered) and byes for players 0..m-1 given pair counts.

    Byes (only when the table sizes need them) go to the fewest byes so far, then the
    fewest pairs still unmet, then the lowest index. Tables minimise, over pairs at one
    table, B ** (times met - fewest times met) (0 for pairs at the fewest), B = m*m+1.
    """
    m = len(met)
    sizes, nbyes = table_sizes(m, size, smallest)
    need = [sum(1 for q in range(m) if q != p and met[p][q] == 0) for p in range(m)]
    by_bye = sorted(range(m), key=lambda p: (byes[p], need[p], p))
    bye_set = set(by_bye[:nbyes])
    seated = [p for p in range(m) if p not in bye_set]
    if not sizes:
        return [], sorted(bye_set)
    fewest = min((met[a][b] for i, a in enumerate(seated) for b in seated[i + 1 :]), default=0)
    base = float(m * m + 1)
    w = [
        [base ** (met[a][b] - fewest) if met[a][b] > fewest and a != b else 0.0 for b in seated]
        for a in seated
    ]
    groups = partition(w, sizes, seed=seed, restarts=restarts)
    return [sorted(seated[i] for i in g) for g in groups], sorted(bye_set)


def _seat(groups: list[list[int]], seats) -> list[tuple[int, ...]]:
    tables = [assign_seats(g, seats, exact=True) for g in groups]
    for t in tables:
        for s, p in enumerate(t):
            seats[p][s] = seats[p].get(s, 0) + 1
    return sorted(tables, key=min)


def _seat_schedule(rounds, n: int) -> list[list[tuple[int, ...]]]:
    """Seat every round's tables, then improve table by table with the whole schedule known."""
    seats: list[dict[int, int]] = [{} for _ in range(n)]
    seated = [_seat(groups, seats) for groups, _ in rounds]
    for _ in range(3):
        changed = False
        for tables in seated:
            for ti, table in enumerate(tables):
                for s, p in enumerate(table):
                    seats[p][s] -= 1
                better = assign_seats(table, seats, exact=True)
                for s, p in enumerate(better):
                    seats[p][s] = seats[p].get(s, 0) + 1
                if better != table:
                    tables[ti] = better
                    changed = True
        if not changed:
            break
    return seated


def _count(met: list[list[int]], groups) -> None:
    for g in groups:
        for a, b in combinations(g, 2):
            met[a][b] += 1
            met[b][a] += 1


def _spread(met: list[list[int]]) -> tuple[int, int]:
    n = len(met)
    counts = [met[a][b] for a in range(n) for b in range(a + 1, n)]
    return min(counts), max(counts)


def _shortest(n: int, size: int, smallest: int, target: int) -> int:
    """A lower bound on the rounds for every pair to meet ``target`` times."""
    sizes, _ = table_sizes(n, size, smallest)
    per_round = sum(s * (s - 1) // 2 for s in sizes)
    if not per_round:
        return 1
    by_player = -(-(n - 1) * target // (size - 1))
    by_pairs = -(-target * (n * (n - 1) // 2) // per_round)
    return max(1, by_player, by_pairs)


# The search tries every length from the lower bound up to
# max(bound + EXTRA_ROUNDS, bound * LENGTH_FACTOR) and keeps the first +-1 schedule.
EXTRA_ROUNDS = 4
LENGTH_FACTOR = 1.5
# When that fails, a tabu search (TABU_STEPS steps) tries every length from the bound up
# to SEARCH_PAST_COVER rounds past where the plain greedy covers every pair (the lengths
# the fallback considers anyway). More steps did not find more (5 seats, n <= 65).
SEARCH_PAST_COVER = 2
TABU_STEPS = 300


@lru_cache(maxsize=64)
def multi_schedule(n: int, size: int, smallest: int, double: bool = False) -> Schedule:
    """Round robin for players 0..n-1 at tables of ``size`` (see the module docstring)."""
    if n < max(2, smallest):
        return ()
    target = 2 if double else 1
    met = [[0] * n for _ in range(n)]
    byes = [0] * n
    greedy: list[tuple[list[list[int]], list[int]]] = []

    def add_round() -> None:
        groups, bye_list = _multi_groups(met, byes, size, smallest, seed=len(greedy))
        _count(met, groups)
        for p in bye_list:
            byes[p] += 1
        greedy.append((groups, bye_list))

    def attempt(rounds_wanted: int) -> tuple[tuple, list]:
        while len(greedy) < rounds_wanted:
            add_round()
        rounds = [([list(g) for g in groups], list(b)) for groups, b in greedy[:rounds_wanted]]
        counts = [[0] * n for _ in range(n)]
        _count(counts, [g for groups, _ in rounds for g in groups])
        low, high = _spread(counts)
        if low < target or high - low > 1:
            balance([g for g, _ in rounds], counts, seed=rounds_wanted, iterations=3000 + 40 * n)
            low, high = _spread(counts)
        return (low < target, high - low, rounds_wanted), rounds

    shortest = _shortest(n, size, smallest, target)
    longest = max(shortest + EXTRA_ROUNDS, int(shortest * LENGTH_FACTOR))
    best: tuple | None = None

    def consider(length: int) -> bool:
        nonlocal best
        key, rounds = attempt(length)
        if best is None or key < best[0]:
            best = (key, rounds)
        return not key[0] and key[1] <= 1

    def search(length: int) -> bool:
        """The tabu search (``grouping.even_out``) from the greedy schedule of this length."""
        nonlocal best
        rounds = [([list(g) for g in groups], list(b)) for groups, b in greedy[:length]]
        counts = [[0] * n for _ in range(n)]
        _count(counts, [g for groups, _ in rounds for g in groups])
        if not even_out([g for g, _ in rounds], counts, seed=length, iterations=TABU_STEPS):
            return False
        low, high = _spread(counts)
        if low < target:
            return False
        best = ((False, high - low, length), rounds)
        return True

    for length in range(shortest, longest + 1):
        if consider(length):
            break
    else:
        # no +-1 schedule that short (5 seats: annealing gets stuck, or none exists):
        # look further, up to where the plain greedy covers every pair
        while _spread(met)[0] < target and len(greedy) < 4 * shortest + 10:
            add_round()
        covered_at = len(greedy)
        reach = max(longest, covered_at + SEARCH_PAST_COVER)
        while len(greedy) < reach:
            add_round()
        per_round = sum(k * (k - 1) // 2 for k in table_sizes(n, size, smallest)[0])
        enough = target * n * (n - 1) // 2  # meetings for every pair to meet `target` times
        lengths = [r for r in range(shortest, reach + 1) if r * per_round >= enough]
        if not any(search(r) for r in lengths):
            # none: the most even covering schedule (annealed) of these lengths wins
            for length in range(longest + 1, covered_at + 6):
                assert best is not None
                if length > covered_at + 2 and not best[0][0] and best[0][1] <= 2:
                    break
                if consider(length):
                    break
            length = max(longest, covered_at + 2)
            while best is not None and best[0][0] and length < 4 * shortest + 10:
                length += 1
                consider(length)
    assert best is not None
    seated = _seat_schedule(best[1], n)
    return tuple(
        (tuple(sorted(tables, key=min)), tuple(b))
        for tables, (_, b) in zip(seated, best[1], strict=True)
    )


class RoundRobin:
    """Every entrant meets every other (see the module docstring)."""

    name = "round_robin"
    round_word = "Round"

    def __init__(self, config: Config):
        self.config = config

    # ---- schedule --------------------------------------------------------
    def _schedule(self, order: list[Entrant]) -> Schedule:
        c = self.config
        if c.table_size == 2:
            return circle_schedule(len(order), c.double)
        return multi_schedule(len(order), c.table_size, c.smallest_table, c.double)

    def _minimum(self) -> int:
        return 2 if self.config.table_size == 2 else self.config.smallest_table

    def validate(self, entrants: list[Entrant]) -> None:
        check_common(self.config, entrants, self._minimum())

    def total_rounds(self, entrants: list[Entrant]) -> int | None:
        return len(self._schedule(seeding_order(entrants)))

    def _label(self, number: int) -> str:
        return f"{self.round_word} {number}"

    def next_round(
        self, entrants: list[Entrant], played: list[Round], seed: int = 0
    ) -> Round | None:
        check_played(entrants, played)
        order = seeding_order(entrants)
        schedule = self._schedule(order)
        number = len(played) + 1
        if self._consistent(order, schedule, played):
            if number > len(schedule):
                return None
            return self._scheduled_round(order, schedule, number)
        return self._repair_round(entrants, played, number, seed)

    def _consistent(self, order: list[Entrant], schedule: Schedule, played: list[Round]) -> bool:
        """Whether every played table is (part of) a table the schedule planned."""
        if len(played) > len(schedule):
            return False
        for rnd, (tables, _byes) in zip(played, schedule, strict=False):
            where = {order[i].id: ti for ti, t in enumerate(tables) for i in t}
            for table in rnd.tables:
                spots = {where.get(e, -1) for e in table.seats}
                if len(spots) != 1 or -1 in spots:
                    return False
        return True

    def _scheduled_round(self, order: list[Entrant], schedule: Schedule, number: int) -> Round:
        tables_idx, byes_idx = schedule[number - 1]
        active = active_ids(order, number)
        smallest = 2 if self.config.table_size == 2 else self.config.smallest_table
        tables: list[Table] = []
        byes: list[int] = [order[i].id for i in byes_idx if order[i].id in active]
        for t in tables_idx:
            members = tuple(order[i].id for i in t if order[i].id in active)
            if len(members) == len(t) or len(members) >= smallest:
                tables.append(Table(seats=members))
            else:
                byes.extend(members)
        return Round(
            number=number, tables=tuple(tables), byes=tuple(byes), label=self._label(number)
        )

    def _repair_round(
        self, entrants: list[Entrant], played: list[Round], number: int, seed: int
    ) -> Round | None:
        c = self.config
        target = 2 if c.double else 1
        history = History.of(played)
        active = sorted(active_ids(entrants, number))
        deficit = [(a, b) for a, b in combinations(active, 2) if history.met[pair(a, b)] < target]
        if not deficit:
            return None
        if c.table_size == 2:
            need: dict[int, int] = {}
            for a, b in deficit:
                need[a] = need.get(a, 0) + 1
                need[b] = need.get(b, 0) + 1
            graph = nx.Graph()
            for a, b in deficit:
                graph.add_edge(a, b, weight=need[a] + need[b])
            matching = nx.max_weight_matching(graph, maxcardinality=True)
            tables = []
            for a, b in sorted(tuple(sorted(m)) for m in matching):
                sa = history.two_seat.get(a, [])
                sb = history.two_seat.get(b, [])
                white_a = sa.count(0) - sa.count(1)
                white_b = sb.count(0) - sb.count(1)
                tables.append(Table(seats=(a, b) if white_a <= white_b else (b, a)))
            return Round(number=number, tables=tuple(tables), label=self._label(number))
        met = [[history.met[pair(a, b)] if a != b else 0 for b in active] for a in active]
        groups, local_byes = _multi_groups(
            met, [history.byes[e] for e in active], c.table_size, c.smallest_table, seed
        )
        if not groups:
            return None
        index = {e: i for i, e in enumerate(active)}
        if not any(met[x][y] < target for g in groups for x, y in combinations(g, 2)):
            # bring one missing pair together so that every repair round makes progress
            a, b = index[deficit[0][0]], index[deficit[0][1]]
            ga = next((g for g in groups if a in g), None)
            gb = next((g for g in groups if b in g), None)
            if ga is None:  # a had a bye: it takes the place of someone at b's table
                a, b, ga, gb = b, a, gb, ga
            assert ga is not None
            other = next(x for x in ga if x != a)
            ga[ga.index(other)] = b
            if gb is not None:
                gb[gb.index(b)] = other
            else:
                local_byes = sorted(other if x == b else x for x in local_byes)
        seats = [dict(history.seat_counts.get(e, {})) for e in active]
        tables = _seat([sorted(g) for g in groups], seats)
        return Round(
            number=number,
            tables=tuple(Table(seats=tuple(active[i] for i in t)) for t in tables),
            byes=tuple(sorted(active[i] for i in local_byes)),
            label=self._label(number),
        )

    def final_ranking(self, entrants: list[Entrant], played: list[Round]) -> list[list[int]]:
        return ranking_from_standings(entrants, played, self.config)
