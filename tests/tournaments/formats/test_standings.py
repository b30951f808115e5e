"""Points, tie-breaks and standings: hand-computed examples and scratch == incremental."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.formats import (
    Config,
    Entrant,
    FormatError,
    Round,
    StandingsAccumulator,
    Table,
    TableResult,
    compute_standings,
    get_format,
    seat_places,
    seat_points,
)
from tournaments.formats.points import bye_points, pairwise

from .sim import make_entrants, simulate


def t(seats, ranks, forfeited=()):
    return Table(seats=tuple(seats), result=TableResult(tuple(ranks), tuple(forfeited)))


# A=1, B=2, C=3, D=4 (two seats)
#   R1: A beats B, C draws D      R2: A draws C, B beats D      R3: D beats A, B beats C
# points:      A 1.5  B 2  C 1  D 1.5
# buchholz:    A 2+1+1.5=4.5  B 1.5+1.5+1=4  C 1.5+1.5+2=5  D 1+2+1.5=4.5
# median:      each minus its highest and lowest contribution: 1.5 for all four
# SB:          A 1*2+.5*1+0=2.5  B 0+1*1.5+1*1=2.5  C .5*1.5+.5*1.5+0=1.5  D .5*1+0+1*1.5=2
# avg place:   A (1+1.5+2)/3=1.5  B (2+1+1)/3  C (1.5+1.5+2)/3  D (1.5+2+1)/3=1.5
ENTRANTS = [Entrant(1, 1500), Entrant(2, 1600), Entrant(3, 1700), Entrant(4, 1400)]
PLAYED = [
    Round(1, (t((1, 2), (1, 2)), t((3, 4), (1, 1)))),
    Round(2, (t((1, 3), (1, 1)), t((2, 4), (1, 2)))),
    Round(3, (t((4, 1), (1, 2)), t((2, 3), (1, 2)))),
]


def by_entrant(rows):
    return {r.entrant: r for r in rows}


def test_hand_computed_two_seat_tiebreaks():
    rows = by_entrant(compute_standings(ENTRANTS, PLAYED, Config()))
    assert {e: r.points for e, r in rows.items()} == {1: 1.5, 2: 2.0, 3: 1.0, 4: 1.5}
    assert {e: r.played for e, r in rows.items()} == {1: 3, 2: 3, 3: 3, 4: 3}
    tb = {e: r.tiebreaks for e, r in rows.items()}
    assert {e: v["buchholz"] for e, v in tb.items()} == {1: 4.5, 2: 4.0, 3: 5.0, 4: 4.5}
    assert {e: v["median_buchholz"] for e, v in tb.items()} == {1: 1.5, 2: 1.5, 3: 1.5, 4: 1.5}
    assert {e: v["sonneborn_berger"] for e, v in tb.items()} == {1: 2.5, 2: 2.5, 3: 1.5, 4: 2.0}
    assert tb[1]["average_place"] == 1.5
    assert tb[2]["average_place"] == pytest.approx(4 / 3)
    assert tb[3]["average_place"] == pytest.approx(5 / 3)
    assert tb[4]["average_place"] == 1.5
    assert {e: v["rating"] for e, v in tb.items()} == {1: 1500, 2: 1600, 3: 1700, 4: 1400}


def test_ranking_uses_tiebreaks_in_order():
    rows = compute_standings(ENTRANTS, PLAYED, Config())
    # A and D: equal points, Buchholz and median Buchholz; Sonneborn-Berger 2.5 > 2
    assert [(r.rank, r.entrant) for r in rows] == [(1, 2), (2, 1), (3, 4), (4, 3)]


def test_head_to_head_among_the_tied():
    rows = compute_standings(ENTRANTS, PLAYED, Config(tiebreaks=("head_to_head",)))
    # A and D tied on points; D beat A
    assert [(r.rank, r.entrant) for r in rows] == [(1, 2), (2, 4), (3, 1), (4, 3)]
    tb = by_entrant(rows)
    assert tb[4].tiebreaks["head_to_head"] == 1.0
    assert tb[1].tiebreaks["head_to_head"] == 0.0
    assert tb[2].tiebreaks["head_to_head"] == 0.0  # alone on its points


def test_head_to_head_after_earlier_tiebreaks():
    # Buchholz first separates nobody among A and D (4.5 each), then head-to-head
    rows = compute_standings(ENTRANTS, PLAYED, Config(tiebreaks=("buchholz", "head_to_head")))
    assert [r.entrant for r in rows] == [2, 4, 1, 3]


def test_average_place_lower_is_better():
    rows = compute_standings(ENTRANTS, PLAYED, Config(tiebreaks=("average_place",)))
    # A and D both 1.5 on points and 1.5 average place: they share rank 2
    assert [(r.rank, r.entrant) for r in rows] == [(1, 2), (2, 1), (2, 4), (4, 3)]


def test_rating_tiebreak_and_shared_ranks():
    rows = compute_standings(ENTRANTS, PLAYED, Config(tiebreaks=("rating",)))
    assert [r.entrant for r in rows] == [2, 1, 4, 3]
    rows = compute_standings(ENTRANTS, PLAYED, Config(tiebreaks=()))
    assert [(r.rank, r.entrant) for r in rows] == [(1, 2), (2, 1), (2, 4), (4, 3)]


def test_median_buchholz_needs_three_contributions():
    entrants = [Entrant(i) for i in range(1, 4)]
    played = [Round(1, (t((1, 2), (1, 2)),), byes=(3,)), Round(2, (t((1, 3), (2, 1)),))]
    rows = by_entrant(compute_standings(entrants, played, Config()))
    # entrant 1 met 2 (0 points) and 3 (2 points: bye + win): two contributions, kept
    assert rows[1].tiebreaks["buchholz"] == 2.0
    assert rows[1].tiebreaks["median_buchholz"] == 2.0


def test_multiplayer_points_places_ties_and_forfeits():
    config = Config(table_size=4)
    assert seat_points(config, TableResult((1, 2, 3, 4))) == [3, 2, 1, 0]
    # tied first two share (3+2)/2
    assert seat_points(config, TableResult((1, 1, 3, 4))) == [2.5, 2.5, 1, 0]
    assert seat_places(TableResult((1, 1, 3, 4))) == [1.5, 1.5, 3, 4]
    # dense ranks mean the same
    assert seat_points(config, TableResult((1, 1, 2, 3))) == [2.5, 2.5, 1, 0]
    # two forfeits: both get last-place points and last place
    result = TableResult((1, 2, 3, 3), (False, False, True, True))
    assert seat_points(config, result) == [3, 2, 0, 0]
    assert seat_places(result) == [1, 2, 4, 4]
    assert pairwise(result, 2, 3) == 0.5 and pairwise(result, 1, 2) == 1.0
    # a three-seat table at a four-seat event: the four-seat scale stretched, a win is 3 too
    assert seat_points(config, TableResult((2, 1, 3))) == [1.5, 3, 0]
    # two seats: a draw is worth half
    assert seat_points(Config(), TableResult((1, 1))) == [0.5, 0.5]


def test_configured_points_and_bye_points():
    config = Config(table_size=4, points={4: (5, 3, 1, 0), 3: (4, 2, 0)})
    assert seat_points(config, TableResult((2, 1, 4, 3))) == [3, 5, 0, 1]
    assert bye_points(config) == 5
    assert bye_points(Config()) == 1.0
    assert bye_points(Config(table_size=3)) == 2.0
    assert bye_points(Config(bye_points=0.5)) == 0.5


def test_multiplayer_tiebreaks_hand_computed():
    # one 3-seat table: 1 first, 2 and 3 tied second; then a bye for 1
    entrants = [Entrant(i) for i in (1, 2, 3)]
    played = [Round(1, (t((1, 2, 3), (1, 2, 2)),)), Round(2, (), byes=(1,))]
    rows = by_entrant(compute_standings(entrants, played, Config(table_size=3)))
    # points (2, 1, 0): 1 -> 2, 2 and 3 -> 0.5 each; the bye gives 1 another 2
    assert (rows[1].points, rows[2].points, rows[3].points) == (4.0, 0.5, 0.5)
    assert rows[1].played == 2
    assert rows[1].tiebreaks["buchholz"] == 1.0  # 0.5 + 0.5
    assert rows[2].tiebreaks["buchholz"] == 4.5  # 4 + 0.5
    # SB for 2: beat nobody, lost to 1 (0 x 4), drew 3 (0.5 x 0.5)
    assert rows[2].tiebreaks["sonneborn_berger"] == 0.25
    assert rows[1].tiebreaks["sonneborn_berger"] == 1.0
    # the bye brings no place
    assert rows[1].tiebreaks["average_place"] == 1.0
    assert rows[2].tiebreaks["average_place"] == 2.5
    assert rows[2].rank == rows[3].rank == 2  # equal on everything


def test_entrant_without_games_gets_neutral_average_place():
    rows = compute_standings([Entrant(1), Entrant(2)], [], Config(table_size=4))
    assert all(r.tiebreaks["average_place"] == 2.5 for r in rows)
    assert [r.rank for r in rows] == [1, 1]


def test_unfinished_tables_are_ignored():
    played = [Round(1, (Table((1, 2)), t((3, 4), (1, 2))))]
    rows = by_entrant(compute_standings(ENTRANTS, played, Config()))
    assert rows[1].played == 0 and rows[3].points == 1.0


def test_errors_are_readable():
    with pytest.raises(FormatError, match="not an entrant"):
        compute_standings(ENTRANTS, [Round(1, (t((1, 9), (1, 2)),))], Config())
    with pytest.raises(FormatError, match="Unknown tie-break"):
        compute_standings(ENTRANTS, [], Config(tiebreaks=("elo",)))
    with pytest.raises(FormatError, match="ranks"):
        compute_standings(ENTRANTS, [Round(1, (t((1, 2), (1,)),))], Config())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 30),
    size=st.integers(2, 5),
    name=st.sampled_from(["swiss", "round_robin"]),
    seed=st.integers(0, 10**6),
    tiebreaks=st.permutations(
        ["buchholz", "median_buchholz", "sonneborn_berger", "average_place", "head_to_head"]
    ),
)
def test_incremental_equals_scratch(n, size, name, seed, tiebreaks):
    rng = random.Random(seed)
    size = min(size, max(2, n))
    config = Config(table_size=size, rounds=3, tiebreaks=tuple(tiebreaks[:3]) + ("rating",))
    if size > 2 and n < size - 1:
        return
    entrants = make_entrants(n, rng, withdrawals=n // 5, late=n // 6)
    fmt = get_format(name, config)
    played = simulate(fmt, entrants, rng, tie=0.3, forfeit=0.1)
    if name == "round_robin":
        played = played[:4]
    whole = StandingsAccumulator(entrants, config)
    pieces = StandingsAccumulator(entrants, config)
    for rnd in played:
        whole.add_round(rnd)
        items = [("t", tb) for tb in rnd.tables] + [("b", e) for e in rnd.byes]
        rng.shuffle(items)
        for kind, item in items:
            if kind == "t":
                pieces.add_table(rnd.number, item)
            else:
                pieces.add_bye(rnd.number, item)
        assert whole.standings() == compute_standings(entrants, played[: rnd.number], config)
    assert pieces.standings() == compute_standings(entrants, played, config)
