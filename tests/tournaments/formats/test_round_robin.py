"""Round robin and league."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tournaments.formats import Config, Entrant, FormatError, League, Round, RoundRobin
from tournaments.formats.round_robin import circle_schedule, multi_schedule

from .sim import SETTINGS, SLOW, check_ranking, finish, make_entrants, meetings, simulate, slow

BIG = 65 if SLOW else 33


def counts_over(ids, met):
    return [met.get(frozenset(p), 0) for p in combinations(ids, 2)]


@SETTINGS
@given(n=st.integers(2, BIG), double=st.booleans(), seed=st.integers(0, 10**6))
@example(n=65, double=False, seed=1)
def test_two_seats_everyone_meets_once_with_balanced_seats(n, double, seed):
    rng = random.Random(seed)
    entrants = make_entrants(n, rng, seeds=n // 4)
    fmt = RoundRobin(Config(double=double))
    played = simulate(fmt, entrants, rng)
    assert len(played) == fmt.total_rounds(entrants) == (n - 1 + n % 2) * (2 if double else 1)
    met = meetings(played)
    ids = [e.id for e in entrants]
    assert set(counts_over(ids, met)) == {2 if double else 1}
    seat0 = Counter(t.seats[0] for r in played for t in r.tables)
    games = Counter(e for r in played for t in r.tables for e in t.seats)
    for e in ids:
        assert abs(2 * seat0[e] - games[e]) <= 1, "seat 0 not balanced"
    byes = Counter(e for r in played for e in r.byes)
    if n % 2:
        assert all(byes[e] == (2 if double else 1) for e in ids)
    else:
        assert not byes
    if double:  # each pair once from each side
        sides = Counter(t.seats for r in played for t in r.tables)
        assert all(v == 1 for v in sides.values())
    check_ranking(fmt.final_ranking(entrants, played), entrants)


def test_circle_schedule_seeds_and_colours_small():
    rounds = circle_schedule(4)
    assert len(rounds) == 3
    assert [sorted(map(sorted, tables)) for tables, _ in rounds][0] == [[0, 3], [1, 2]]
    odd = circle_schedule(5)
    assert [b for _, b in odd] and sorted(b[0] for _, b in odd) == [0, 1, 2, 3, 4]


def _check_multi(n, size, double):
    rounds = multi_schedule(n, size, size - 1, double)
    met: Counter = Counter()
    byes: Counter = Counter()
    for tables, bye in rounds:
        players = [p for t in tables for p in t] + list(bye)
        assert sorted(players) == list(range(n))
        for t in tables:
            assert size - 1 <= len(t) <= size
            for a, b in combinations(t, 2):
                met[frozenset((a, b))] += 1
        byes.update(bye)
    counts = counts_over(range(n), met)
    target = 2 if double else 1
    assert min(counts) >= target
    if byes:
        assert max(byes[p] for p in range(n)) - min(byes[p] for p in range(n)) <= 1
    return max(counts) - min(counts)


@pytest.mark.parametrize("size", [3, 4])
@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 20])
def test_multiplayer_pairs_meet_equally_often_within_one(n, size):
    for double in (False, True):
        assert _check_multi(n, size, double) <= 1


def test_sixteen_at_four_seats_meet_exactly_once_in_five_rounds():
    rounds = multi_schedule(16, 4, 3, False)
    assert len(rounds) == 5
    met = Counter(frozenset(p) for tables, _ in rounds for t in tables for p in combinations(t, 2))
    assert len(met) == 120 and set(met.values()) == {1}


# Five seats, n <= 65: the schedules where pair counts are within two, not one (every
# pair still meets at least once / twice). See the module docstring.
# - 9 (a 5 and a 4 table) and 10 (two 5s): no +-1 schedule exists below 14 and 17 rounds,
#   where every pair would meet 6-7 / 7-8 times (9: the counting argument in
#   test_nine_at_five_and_four_seats_needs_fourteen_rounds_for_within_one; 10: a player's
#   sides form a balanced binary word, and counts within one would need 10 mutually
#   equidistant words, i.e. a Hadamard matrix of order 10, or two classes of 5 words
#   pairwise orthogonal or summing to zero, which parity rules out).
# - The rest are multiples of 5 (all tables full, so everyone meets exactly 4 a round
#   and the counts are rigid): the search finds none up to two rounds past covering;
#   some lengths provably have none (15 in 7 rounds would be a resolvable 2-(15,5,2)
#   design, ruled out by Bose's inequality).
FIVE_SEAT_WITHIN_TWO = {
    (9, False), (9, True), (10, False), (10, True), (15, False), (15, True),
    (20, False), (20, True), (25, True), (30, False), (30, True), (35, True),
    (40, True), (45, False), (50, True),
}  # fmt: skip


def allowed_spread(n: int, size: int, double: bool) -> int:
    return 2 if size == 5 and (n, double) in FIVE_SEAT_WITHIN_TWO else 1


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 18])
def test_five_seats_pairs_meet_equally_often_within_one_but_documented_cases(n):
    for double in (False, True):
        assert _check_multi(n, 5, double) <= allowed_spread(n, 5, double)


def test_nine_at_five_and_four_seats_needs_fourteen_rounds_for_within_one():
    """Why (9, 5 seats) is an exception. Round by round one table seats 4, the other 5; say
    player a sits r_a times at the 4-table and l_ab counts the rounds a and b both do.
    Then a and b meet R - r_a - r_b + 2 l_ab times, so the parity of a count is that of
    R + r_a + r_b: counts within one force all pairs with r_a + r_b even to meet c times
    and the others c' = c +- 1 times. Summing a's counts (4 a round at the 5-table, 3 at
    the 4-table) pins r down per parity class; what remains has no solution below 14."""

    def possible(rounds: int) -> bool:
        for x in range(10):  # players with r odd
            for r_odd in range(1, rounds + 1, 2):
                for r_even in range(0, rounds + 1, 2):
                    if x * r_odd + (9 - x) * r_even != 4 * rounds:
                        continue
                    for c in range(1, 3 * rounds):
                        for c2 in (c - 1, c + 1) if 0 < x < 9 else (c,):
                            if c2 < 1:
                                continue
                            if x and (x - 1) * c + (9 - x) * c2 != 4 * rounds - r_odd:
                                continue
                            if x < 9 and x * c2 + (8 - x) * c != 4 * rounds - r_even:
                                continue
                            both = [c - rounds + 2 * r_odd] * (x >= 2)
                            both += [c - rounds + 2 * r_even] * (9 - x >= 2)
                            both += [c2 - rounds + r_odd + r_even] * (0 < x < 9)
                            if all(v >= 0 and v % 2 == 0 for v in both):
                                return True
        return False

    assert not any(possible(r) for r in range(1, 14))
    assert possible(14)  # and the search does find one: every pair meets 6 or 7 times


@pytest.mark.slow
@slow
@pytest.mark.parametrize("size", [3, 4, 5])
def test_multiplayer_sweep_to_65(size):
    for n in range(size - 1, 66):
        for double in (False, True):
            assert _check_multi(n, size, double) <= allowed_spread(n, size, double)


@SETTINGS
@given(
    n=st.integers(2, 40 if SLOW else 14),
    size=st.integers(3, 5),
    double=st.booleans(),
    seed=st.integers(0, 10**6),
)
def test_multiplayer_simulation(n, size, double, seed):
    if n < size - 1:
        return
    rng = random.Random(seed)
    entrants = make_entrants(n, rng)
    fmt = RoundRobin(Config(table_size=size, double=double))
    played = simulate(fmt, entrants, rng)
    assert len(played) == fmt.total_rounds(entrants)
    counts = counts_over([e.id for e in entrants], meetings(played))
    assert min(counts) >= (2 if double else 1)
    assert max(counts) - min(counts) <= allowed_spread(n, size, double)
    seat0 = Counter(t.seats[0] for r in played for t in r.tables)
    counts = [seat0[e.id] for e in entrants]
    assert max(counts) - min(counts) <= 2, "seat 0 not spread evenly"
    check_ranking(fmt.final_ranking(entrants, played), entrants)


@SETTINGS
@given(n=st.integers(3, 30), size=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_withdrawals_and_late_entries(n, size, seed):
    if n < size:
        return
    rng = random.Random(seed)
    entrants = make_entrants(n, rng, withdrawals=max(1, n // 5), late=max(1, n // 6))
    fmt = League(Config(table_size=size))
    played = simulate(fmt, entrants, rng)
    # nobody meets more often than the schedule allows
    met = meetings(played)
    assert max(met.values(), default=0) <= (1 if size == 2 else 3)
    for rnd in played:
        assert rnd.label == f"Matchday {rnd.number}"
    check_ranking(fmt.final_ranking(entrants, played), entrants)


def test_withdrawn_opponent_gives_a_walkover_bye():
    entrants = [Entrant(i) for i in range(1, 5)]
    fmt = RoundRobin(Config())
    played = [finish(fmt.next_round(entrants, []), random.Random(1))]
    planned = fmt.next_round(entrants, played)
    opponent = next(e for t in planned.tables if 1 in t.seats for e in t.seats if e != 1)
    entrants[0] = Entrant(1, withdrawn_after=1)
    r2 = fmt.next_round(entrants, played)
    assert r2.byes == (opponent,)
    assert [set(t.seats) for t in r2.tables] == [
        set(t.seats) for t in planned.tables if 1 not in t.seats
    ]


def test_repair_mode_when_an_entrant_is_added_after_the_start():
    rng = random.Random(3)
    entrants = [Entrant(i) for i in range(1, 7)]
    fmt = RoundRobin(Config())
    played = []
    for _ in range(2):
        played.append(finish(fmt.next_round(entrants, played), rng))
    entrants = entrants + [Entrant(7, joined_round=3)]
    while (rnd := fmt.next_round(entrants, played)) is not None:
        played.append(finish(rnd, rng))
        assert len(played) < 30
    met = meetings(played)
    ids = [e.id for e in entrants]
    assert set(counts_over(ids, met)) == {1}  # everybody met the newcomer too


def test_validation():
    with pytest.raises(FormatError, match="at least 3"):
        RoundRobin(Config(table_size=4)).validate([Entrant(1), Entrant(2)])
    with pytest.raises(FormatError, match="2 to 5 seats"):
        RoundRobin(Config(table_size=6)).validate([Entrant(i) for i in range(8)])
    with pytest.raises(FormatError, match="twice"):
        RoundRobin(Config()).validate([Entrant(1), Entrant(1)])
    RoundRobin(Config(table_size=4)).validate([Entrant(i) for i in range(3)])


def test_played_rounds_are_checked():
    fmt = RoundRobin(Config())
    entrants = [Entrant(i) for i in range(1, 5)]
    with pytest.raises(FormatError, match="numbered"):
        fmt.next_round(entrants, [Round(2, ())])


@pytest.mark.parametrize(
    "n,sizes,rounds", [(13, [5, 4, 4], 8), (18, [5, 5, 4, 4], 6), (10, [5, 5], 6)]
)
def test_even_out_keeps_rounds_whole_and_counts_true(n, sizes, rounds):
    from tournaments.formats.grouping import even_out

    rng = random.Random(n)
    schedule = []
    for _ in range(rounds):
        players = list(range(n))
        rng.shuffle(players)
        tables, start = [], 0
        for size in sizes:
            tables.append(players[start : start + size])
            start += size
        schedule.append(tables)
    met = [[0] * n for _ in range(n)]
    for tables in schedule:
        for t in tables:
            for a, b in combinations(t, 2):
                met[a][b] += 1
                met[b][a] += 1
    done = even_out(schedule, met, seed=1, iterations=2000)
    recount = [[0] * n for _ in range(n)]
    for tables in schedule:
        assert sorted(p for t in tables for p in t) == list(range(n))
        assert sorted(map(len, tables), reverse=True) == sizes
        for t in tables:
            for a, b in combinations(t, 2):
                recount[a][b] += 1
                recount[b][a] += 1
    assert recount == met
    counts = [met[a][b] for a, b in combinations(range(n), 2)]
    assert done == (max(counts) - min(counts) <= 1)
    if n != 10:  # 10 at two 5-seat tables: none exists (see FIVE_SEAT_WITHIN_TWO)
        assert done
