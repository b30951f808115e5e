"""Swiss system."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import networkx as nx
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tournaments.formats import (
    Config,
    Entrant,
    FormatError,
    Round,
    Swiss,
    Table,
    TableResult,
    compute_standings,
)

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
    # 16 players at 4 seats: round 2's score groups (one player of each round-1 table)
    # meet nobody twice; later, points come first (score groups may force a repeat)
    rng = random.Random(7)
    entrants = [Entrant(i, rating=2000 - i) for i in range(1, 17)]
    fmt = Swiss(Config(table_size=4, rounds=2))
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


# ---------------------------------------------------------------------------
# multiplayer Swiss as organisers know it (the rules: swiss.py, "Three to five seats")


def yspahan_night() -> list[Entrant]:
    """Three rated club members (1, 2, 3) and six guests at the default rating."""
    members = [Entrant(1, rating=1720), Entrant(2, rating=1650), Entrant(3, rating=1580)]
    return members + [Entrant(i) for i in range(4, 10)]


def test_yspahan_night_spreads_the_members_in_round_one():
    rnd = Swiss(Config(table_size=4)).next_round(yspahan_night(), [])
    # 9 at tables of 4 (3 seats at least): three tables of 3, no bye
    assert [len(t.seats) for t in rnd.tables] == [3, 3, 3] and rnd.byes == ()
    assert [sorted(set(t.seats) & {1, 2, 3}) for t in rnd.tables] == [[1], [2], [3]]
    # snake: 1 2 3 / 6 5 4 / 7 8 9 by seeding order
    assert [sorted(t.seats) for t in rnd.tables] == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]


def test_random_seeding_follows_the_tournaments_seed():
    fmt = Swiss(Config(table_size=4, seeding="random"))
    rounds = {
        tuple(frozenset(t.seats) for t in fmt.next_round(yspahan_night(), [], seed=s).tables)
        for s in range(8)
    }
    assert len(rounds) > 1  # the seed decides
    again = fmt.next_round(yspahan_night(), [], seed=3)
    assert again == fmt.next_round(yspahan_night(), [], seed=3)


def test_snake_deals_over_tables_of_two_sizes():
    from tournaments.formats.swiss import snake

    assert snake(list(range(1, 12)), [4, 4, 3]) == [[1, 6, 7, 11], [2, 5, 8, 10], [3, 4, 9]]


def test_latecomers_start_at_the_bottom_not_with_the_leaders():
    # 12 played round 1 at three tables; 4 join in round 2 with 0 points
    entrants = [Entrant(i, rating=2000 - i) for i in range(1, 13)]
    entrants += [Entrant(i, joined_round=2) for i in range(13, 17)]
    fmt = Swiss(Config(table_size=4, rounds=3))
    first = fmt.next_round(entrants, [])
    assert all(13 not in t.seats for t in first.tables) and len(first.tables) == 3
    played = [finish(first, random.Random(2), tie=0, forfeit=0)]
    second = fmt.next_round(entrants, played)
    points = {e: 0.0 for e in range(1, 17)}
    for t in played[0].tables:
        for seat, rank in zip(t.seats, t.result.ranks, strict=True):
            points[seat] = 4 - rank
    winners = {e for e, p in points.items() if p == 3}
    top = set(second.tables[0].seats)
    assert winners <= top and not top & {13, 14, 15, 16}
    # the latecomers sit at the last table (the lowest group, with the round-1 last places)
    assert {13, 14, 15, 16} & set(second.tables[-1].seats)


def test_smaller_tables_go_to_the_lowest_score_group():
    # 11 at tables of 4: 4 + 4 + 3, the 3-table for the three lowest scores
    entrants = [Entrant(i, rating=2000 - i) for i in range(1, 12)]
    fmt = Swiss(Config(table_size=4, rounds=2))
    played = [finish(fmt.next_round(entrants, []), random.Random(5), tie=0, forfeit=0)]
    rows = {r.entrant: r.points for r in compute_standings(entrants, played, fmt.config)}
    second = fmt.next_round(entrants, played)
    assert [len(t.seats) for t in second.tables] == [4, 4, 3]
    small = [rows[e] for e in second.tables[-1].seats]
    others = [rows[e] for t in second.tables[:-1] for e in t.seats]
    assert max(small) <= min(others)


def test_a_float_rather_than_a_rematch_lowest_down_highest_up():
    from tournaments.formats.common import History
    from tournaments.formats.swiss import group_tables

    points = {1: 6.0, 2: 6.0, 3: 6.0, 4: 6.0, 5: 3.0, 6: 3.0, 7: 3.0, 8: 3.0}
    history = History.of(
        [Round(1, (Table((1, 2, 9, 10), TableResult((1, 2, 3, 4))),))]
    )  # 1 and 2 met; everyone else is new to each other
    tables, byes = group_tables(list(points), points, history, frozenset(), 4, 3)
    assert byes == []
    # 2 (the lower of the pair) floats down, 5 (the best of the next group) up
    assert [sorted(t) for t in tables] == [[1, 3, 4, 5], [2, 6, 7, 8]]
    # without the meeting: plain score groups, nobody floats
    plain, _ = group_tables(list(points), points, History(), frozenset(), 4, 3)
    assert [sorted(t) for t in plain] == [[1, 2, 3, 4], [5, 6, 7, 8]]


def test_a_rematch_rather_than_a_float_over_two_groups():
    from tournaments.formats.common import History
    from tournaments.formats.swiss import group_tables

    # three groups of 3 at tables of 3: the leaders met, and only the third group's
    # players are new to them: two groups away, so the leaders replay
    points = {1: 4.0, 2: 4.0, 3: 4.0, 4: 2.0, 5: 2.0, 6: 2.0, 7: 0.0, 8: 0.0, 9: 0.0}
    met = [Table((1, 2, 3), TableResult((1, 2, 3)))]
    met += [Table((a, b), TableResult((1, 2))) for a in (1, 2, 3) for b in (4, 5, 6)]
    history = History.of([Round(1, tuple(met))])
    tables, _ = group_tables(list(points), points, history, frozenset(), 3, 2)
    assert [sorted(t) for t in tables] == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]


def test_random_seeding_with_two_seats_shuffles_round_one_only():
    entrants = [Entrant(i, rating=2000 - i) for i in range(1, 9)]
    snake_round = Swiss(Config()).next_round(entrants, [])
    fmt = Swiss(Config(seeding="random"))
    shuffled = {fmt.next_round(entrants, [], seed=s).tables for s in range(6)}
    assert len(shuffled) > 1 and snake_round.tables != fmt.next_round(entrants, [], seed=1).tables
    played = [finish(fmt.next_round(entrants, [], seed=1), random.Random(0), tie=0, forfeit=0)]
    # later rounds follow the standings whatever the seed
    assert fmt.next_round(entrants, played, seed=1) == fmt.next_round(entrants, played, seed=9)


def test_an_unknown_seeding_is_refused():
    with pytest.raises(FormatError, match="snake / random") as caught:
        Swiss(Config(table_size=4, seeding="zigzag")).validate([Entrant(i) for i in range(8)])
    assert caught.value.setting == "seeding"
