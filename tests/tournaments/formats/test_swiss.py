"""Swiss system."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import networkx as nx
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tournaments.formats import Config, Entrant, FormatError, Round, Swiss, Table, TableResult

from .sim import SETTINGS, SLOW, check_ranking, finish, make_entrants, simulate, slow, valid

BIG = 65 if SLOW else 40


def has_clean_pairing(players, bad) -> bool:
    """Whether ``players`` can all be paired avoiding the pairs in ``bad``."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    for a, b in combinations(players, 2):
        if frozenset((a, b)) not in bad:
            graph.add_edge(a, b)
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(players)


def check_swiss_two_seats(played, entrants, forbidden) -> None:
    met: set[frozenset[int]] = set()
    byes: Counter = Counter()
    for rnd in played:
        seated = [e for t in rnd.tables for e in t.seats]
        pairs = {frozenset(t.seats) for t in rnd.tables}
        # byes: nobody gets a second bye while someone seated has none
        for b in rnd.byes:
            assert all(byes[b] <= byes[s] for s in seated), f"avoidable second bye in {rnd}"
        assert len(rnd.byes) == len(seated) % 2 or len(rnd.byes) == (len(seated) + 1) % 2
        # the bye goes to the lowest-ranked among the fewest byes: at most one bye
        assert len(rnd.byes) <= 1
        # rematches / forbidden pairs only when unavoidable (for the chosen bye)
        if pairs & forbidden:
            assert not has_clean_pairing(seated, forbidden)
        if pairs & (met | forbidden):
            assert not has_clean_pairing(seated, met | forbidden)
        met |= pairs
        byes.update(rnd.byes)


@SETTINGS
@given(
    n=st.integers(2, BIG),
    rounds=st.integers(1, 9),
    seed=st.integers(0, 10**6),
    withdrawals=st.integers(0, 4),
    late=st.integers(0, 3),
    nforbidden=st.integers(0, 6),
)
@example(n=6, rounds=5, seed=3, withdrawals=0, late=0, nforbidden=0)
@example(n=7, rounds=7, seed=4, withdrawals=0, late=0, nforbidden=2)
@example(n=64, rounds=6, seed=5, withdrawals=3, late=2, nforbidden=6)
def test_two_seats_no_avoidable_rematch_or_second_bye(
    n, rounds, seed, withdrawals, late, nforbidden
):
    rng = random.Random(seed)
    entrants = make_entrants(n, rng, withdrawals=withdrawals, late=late)
    ids = [e.id for e in entrants]
    forbidden = frozenset(frozenset(rng.sample(ids, 2)) for _ in range(nforbidden))
    fmt = Swiss(Config(rounds=rounds, forbidden=forbidden))
    if not valid(fmt, entrants):
        return
    played = simulate(fmt, entrants, rng, tie=0.2, forfeit=0.05)
    assert len(played) == rounds == fmt.total_rounds(entrants)
    check_swiss_two_seats(played, entrants, forbidden)
    check_ranking(fmt.final_ranking(entrants, played), entrants)


@SETTINGS
@given(
    n=st.integers(3, BIG),
    size=st.integers(3, 5),
    rounds=st.integers(1, 6),
    seed=st.integers(0, 10**6),
    withdrawals=st.integers(0, 4),
    late=st.integers(0, 3),
)
def test_multiplayer_tables(n, size, rounds, seed, withdrawals, late):
    if n < size:
        return
    rng = random.Random(seed)
    entrants = make_entrants(n, rng, withdrawals=withdrawals, late=late)
    config = Config(table_size=size, rounds=rounds)
    fmt = Swiss(config)
    if not valid(fmt, entrants):
        return
    played = simulate(fmt, entrants, rng)
    assert len(played) == rounds
    byes: Counter = Counter()
    for rnd in played:
        seated = [e for t in rnd.tables for e in t.seats]
        for t in rnd.tables:
            assert len(t.seats) >= size - 1
        for b in rnd.byes:
            assert all(byes[b] <= byes[s] for s in seated)
        byes.update(rnd.byes)
    check_ranking(fmt.final_ranking(entrants, played), entrants)


def test_multiplayer_avoids_repeat_opponents_when_easy():
    # 16 players at 4 seats: three rounds can be played without anyone meeting twice
    rng = random.Random(7)
    entrants = [Entrant(i, rating=2000 - i) for i in range(1, 17)]
    fmt = Swiss(Config(table_size=4, rounds=3))
    played = simulate(fmt, entrants, rng, tie=0, forfeit=0)
    met: Counter = Counter()
    for rnd in played:
        for t in rnd.tables:
            assert len(t.seats) == 4
            met.update(frozenset(p) for p in combinations(t.seats, 2))
    assert max(met.values()) == 1


def test_multiplayer_table_sizes_and_byes():
    fmt = Swiss(Config(table_size=4, rounds=1))
    rnd = fmt.next_round([Entrant(i) for i in range(1, 11)], [])
    assert sorted(len(t.seats) for t in rnd.tables) == [3, 3, 4] and rnd.byes == ()
    rnd = fmt.next_round([Entrant(i) for i in range(1, 6)], [])
    assert [len(t.seats) for t in rnd.tables] == [4] and len(rnd.byes) == 1
    # the smaller tables sit at the bottom of the standings
    assert rnd.byes == (5,)
    only_full = Swiss(Config(table_size=4, rounds=1, min_table_size=4))
    rnd = only_full.next_round([Entrant(i) for i in range(1, 11)], [])
    assert [len(t.seats) for t in rnd.tables] == [4, 4] and rnd.byes == (9, 10)


def test_round_one_by_seed_top_half_against_bottom_half():
    entrants = [Entrant(i, rating=2000 - i) for i in range(1, 9)]
    rnd = Swiss(Config()).next_round(entrants, [])
    assert sorted(tuple(sorted(t.seats)) for t in rnd.tables) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    # seat 0 alternates by board in round 1
    assert [t.seats[0] for t in rnd.tables] == [1, 6, 3, 8]


def test_winners_meet_winners_and_colours_alternate():
    entrants = [Entrant(i, rating=2000 - i) for i in range(1, 9)]
    fmt = Swiss(Config(rounds=3))
    r1 = fmt.next_round(entrants, [])
    # the first seat wins every table
    done = Round(1, tuple(Table(t.seats, TableResult((1, 2))) for t in r1.tables))
    r2 = fmt.next_round(entrants, [done])
    winners = {t.seats[0] for t in r1.tables}
    for t in r2.tables:
        assert (t.seats[0] in winners) == (t.seats[1] in winners)
        # whoever had seat 0 in round 1 gets seat 1 if its opponent had seat 1
    seat0_twice = [t.seats[0] for t in r2.tables if t.seats[0] in winners]
    assert len(seat0_twice) <= len(r2.tables) // 2 + 1


def test_bye_to_lowest_ranked_without_one():
    entrants = [Entrant(i, rating=2000 - i) for i in range(1, 6)]
    fmt = Swiss(Config(rounds=4))
    rng = random.Random(2)
    played = []
    byes = []
    for _ in range(4):
        rnd = fmt.next_round(entrants, played)
        byes.extend(rnd.byes)
        played.append(finish(rnd, rng, tie=0, forfeit=0))
    assert byes[0] == 5
    assert len(set(byes)) == 4


def test_default_round_count():
    assert Swiss(Config()).total_rounds([Entrant(i) for i in range(16)]) == 4
    assert Swiss(Config()).total_rounds([Entrant(i) for i in range(17)]) == 5
    assert Swiss(Config(table_size=4)).total_rounds([Entrant(i) for i in range(64)]) == 3
    assert Swiss(Config(rounds=7)).total_rounds([Entrant(i) for i in range(4)]) == 7


def test_validation():
    with pytest.raises(FormatError, match="at least one round"):
        Swiss(Config(rounds=0)).validate([Entrant(1), Entrant(2)])
    with pytest.raises(FormatError, match="at least 2"):
        Swiss(Config()).validate([Entrant(1)])
    with pytest.raises(FormatError, match="Points for 4-seat"):
        Swiss(Config(table_size=4, points={4: (3, 2, 1)})).validate([Entrant(i) for i in range(8)])


@pytest.mark.slow
@slow
@pytest.mark.parametrize("size", [2, 4])
def test_thousand_entrants_pair_quickly(size):
    import time

    rng = random.Random(1)
    entrants = [Entrant(i, rating=rng.gauss(1500, 200)) for i in range(1, 1001)]
    fmt = Swiss(Config(table_size=size, rounds=5))
    played = []
    for _ in range(4):
        played.append(finish(fmt.next_round(entrants, played), rng))
    start = time.perf_counter()
    fmt.next_round(entrants, played)
    assert time.perf_counter() - start < 1.0
