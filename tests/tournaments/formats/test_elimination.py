"""Single and double elimination."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tournaments.formats import (
    Config,
    DoubleElimination,
    Entrant,
    FormatError,
    Round,
    SingleElimination,
    Table,
    TableResult,
)
from tournaments.formats.bracket import bracket_positions, next_power_of_two
from tournaments.formats.points import finishing_order

from .sim import SETTINGS, SLOW, check_ranking, finish, make_entrants, simulate, valid

BIG = 65 if SLOW else 40


def seeded(n):
    return [Entrant(i, rating=3000 - i) for i in range(1, n + 1)]


def play(fmt, entrants, winner):
    """Play to the end; ``winner(table)`` gives the index of the winning seat."""
    played = []
    while (rnd := fmt.next_round(entrants, played)) is not None:
        tables = []
        for t in rnd.tables:
            w = winner(t)
            ranks = tuple(1 if s == w else 2 for s in range(len(t.seats)))
            tables.append(Table(t.seats, TableResult(ranks), t.bracket))
        played.append(Round(rnd.number, tuple(tables), rnd.byes, rnd.label))
        assert len(played) < 50
    return played


def better_seed_wins(t):
    return t.seats.index(min(t.seats))


def worse_seed_wins(t):
    return t.seats.index(max(t.seats))


def test_bracket_positions():
    assert bracket_positions(2) == [1, 2]
    assert bracket_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_positions(16)[:4] == [1, 16, 8, 9]


@pytest.mark.parametrize("n", range(2, 34))
def test_single_two_seats_byes_to_top_seeds_and_standard_pairs(n):
    entrants = seeded(n)
    fmt = SingleElimination(Config())
    first = fmt.next_round(entrants, [])
    size = next_power_of_two(n)
    assert sorted(first.byes) == list(range(1, size - n + 1))
    for t in first.tables:
        a, b = sorted(t.seats)
        assert a + b == size + 1  # seed s plays seed P+1-s
    played = play(fmt, entrants, better_seed_wins)
    assert len(played) == fmt.total_rounds(entrants) == size.bit_length() - 1
    ranking = fmt.final_ranking(entrants, played)
    check_ranking(ranking, entrants)
    assert ranking[0] == [1]
    if n >= 2:
        assert ranking[1] == [2]
    if n >= 4:
        assert sorted(ranking[2]) == [3, 4]  # semifinal losers share third place


def test_single_two_seats_labels_and_third_place():
    entrants = seeded(8)
    fmt = SingleElimination(Config(third_place=True))
    played = play(fmt, entrants, worse_seed_wins)
    assert [r.label for r in played] == ["Quarterfinals", "Semifinals", "Final"]
    final = played[-1]
    assert sorted(t.bracket for t in final.tables) == ["3rd", "W"]
    ranking = fmt.final_ranking(entrants, played)
    # worse seeds win every table: final 7 v 8 ... champion 8
    assert ranking[:4] == [[8], [7], [6], [5]]
    assert ranking[4:] == [[1, 2, 3, 4]]


def test_single_draw_goes_to_the_better_seed():
    entrants = seeded(4)
    fmt = SingleElimination(Config())
    r1 = fmt.next_round(entrants, [])
    drawn = Round(1, tuple(Table(t.seats, TableResult((1, 1))) for t in r1.tables))
    r2 = fmt.next_round(entrants, [drawn])
    assert sorted(r2.tables[0].seats) == [1, 2]


def test_single_withdrawal_gives_a_walkover():
    entrants = seeded(8)
    fmt = SingleElimination(Config())
    played = [finish(fmt.next_round(entrants, []), random.Random(1), tie=0, forfeit=0)]
    winners = [t.seats[finishing_order(t.result, [0, 1])[0]] for t in played[0].tables]
    gone = winners[0]
    entrants = [Entrant(e.id, e.rating, withdrawn_after=1) if e.id == gone else e for e in entrants]
    r2 = fmt.next_round(entrants, played)
    assert len(r2.tables) == 1 and len(r2.byes) == 1 and gone not in r2.byes
    rest = play_from(fmt, entrants, played + [finish(r2, random.Random(2), tie=0)])
    check_ranking(fmt.final_ranking(entrants, rest), entrants)


def play_from(fmt, entrants, played):
    rng = random.Random(5)
    while (rnd := fmt.next_round(entrants, played)) is not None:
        played = played + [finish(rnd, rng)]
    return played


def test_single_forbidden_pair_avoided_in_round_one():
    entrants = seeded(8)
    fmt = SingleElimination(Config(forbidden=frozenset({frozenset((1, 8))})))
    r1 = fmt.next_round(entrants, [])
    assert {1, 8} not in [set(t.seats) for t in r1.tables]


@SETTINGS
@given(
    n=st.integers(2, BIG),
    size=st.integers(2, 5),
    advance=st.integers(1, 4),
    third=st.booleans(),
    seed=st.integers(0, 10**6),
    withdrawals=st.integers(0, 3),
)
@example(n=65, size=2, advance=1, third=True, seed=1, withdrawals=2)
@example(n=65, size=4, advance=2, third=False, seed=1, withdrawals=2)
def test_single_simulation(n, size, advance, third, seed, withdrawals):
    if advance >= size:
        return
    rng = random.Random(seed)
    entrants = make_entrants(n, rng, withdrawals=withdrawals, seeds=n // 3)
    fmt = SingleElimination(
        Config(table_size=size, advance=advance, third_place=third and size == 2)
    )
    if not valid(fmt, entrants):
        return
    played = simulate(fmt, entrants, rng, tie=0.2, forfeit=0.05)
    for rnd in played:
        for t in rnd.tables:
            # the final table takes whoever is left (withdrawals can make it small)
            assert (2 if rnd.label == "Final" else advance + 1) <= len(t.seats) <= size
    ranking = fmt.final_ranking(entrants, played)
    check_ranking(ranking, entrants)
    # nobody plays on after being clearly out: behind `advance` others or forfeited
    out: set[int] = set()
    for rnd in played:
        on = {e for t in rnd.tables if t.bracket != "3rd" for e in t.seats} | set(rnd.byes)
        assert not out & on
        for t in rnd.tables:
            keys = [(t.result.is_forfeited(s), r) for s, r in enumerate(t.result.ranks)]
            for s, key in enumerate(keys):
                ahead = sum(1 for other in keys if other < key)
                if t.bracket == "3rd" or key[0] or ahead >= advance:
                    out.add(t.seats[s])
    if withdrawals == 0:
        assert len(ranking[0]) == 1


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9, 13, 16, 17, 31, 33])
@pytest.mark.parametrize("reset", [True, False])
def test_double_everyone_loses_twice_except_the_champion(n, reset):
    entrants = seeded(n)
    rng = random.Random(n)
    fmt = DoubleElimination(Config(grand_final_reset=reset))
    played = simulate(fmt, entrants, rng, tie=0.1, forfeit=0.0)
    losses: Counter = Counter()
    for rnd in played:
        for t in rnd.tables:
            assert all(losses[e] < 2 for e in t.seats), "someone played after a second loss"
            w = t.seats[finishing_order(t.result, list(t.seats))[0]]  # ties: better seed
            losses.update(e for e in t.seats if e != w)
    ranking = fmt.final_ranking(entrants, played)
    check_ranking(ranking, entrants)
    champion = ranking[0]
    assert len(champion) == 1 and losses[champion[0]] <= 1
    assert all(losses[e.id] == 2 for e in entrants if e.id != champion[0] and n > 1) or not reset
    if reset:
        assert sum(1 for e in entrants if losses[e.id] == 2) == n - 1


def test_double_grand_final_reset():
    entrants = seeded(4)
    fmt = DoubleElimination(Config())
    # seed 1 wins the winners' bracket, then loses the first grand final to seed 2
    played = []
    while (rnd := fmt.next_round(entrants, played)) is not None:
        tables = []
        for t in rnd.tables:
            win = t.seats.index(2) if t.bracket == "GF" else t.seats.index(min(t.seats))
            ranks = (1, 2) if win == 0 else (2, 1)
            tables.append(Table(t.seats, TableResult(ranks), t.bracket))
        played.append(Round(rnd.number, tuple(tables), rnd.byes, rnd.label))
    brackets = [t.bracket for r in played for t in r.tables]
    assert brackets.count("GF") == 1 and brackets.count("GF2") == 1
    assert played[-1].label == "Grand final reset"
    assert played[-1].tables[0].seats == (2, 1)  # seats swapped
    assert fmt.final_ranking(entrants, played)[:2] == [[1], [2]]
    no_reset = DoubleElimination(Config(grand_final_reset=False))
    assert no_reset.total_rounds(entrants) == 4
    assert fmt.total_rounds(entrants) is None


@SETTINGS
@given(n=st.integers(2, BIG), seed=st.integers(0, 10**6), withdrawals=st.integers(0, 4))
def test_double_simulation(n, seed, withdrawals):
    rng = random.Random(seed)
    entrants = make_entrants(n, rng, withdrawals=withdrawals, seeds=n // 2)
    fmt = DoubleElimination(Config())
    if not valid(fmt, entrants):
        return
    played = simulate(fmt, entrants, rng, tie=0.2, forfeit=0.1)
    for rnd in played:
        assert rnd.tables  # walkover-only rounds are folded away
        for t in rnd.tables:
            assert len(t.seats) == 2 and t.bracket in {"W", "L", "GF", "GF2"}
    check_ranking(fmt.final_ranking(entrants, played), entrants)


def test_multiplayer_elimination_rounds():
    # 17 players, 4 seats, winner goes through: one play-in table of 2, then 4 tables, final
    entrants = seeded(17)
    fmt = SingleElimination(Config(table_size=4))
    played = play(fmt, entrants, better_seed_wins)
    assert [sorted(len(t.seats) for t in r.tables) for r in played] == [[2], [4, 4, 4, 4], [4]]
    assert played[0].byes == tuple(range(1, 16))
    assert played[-1].label == "Final"
    ranking = fmt.final_ranking(entrants, played)
    assert ranking[:4] == [[1], [2], [3], [4]]
    check_ranking(ranking, entrants)


def test_multiplayer_elimination_two_advance():
    entrants = seeded(8)
    fmt = SingleElimination(Config(table_size=4, advance=2))
    first = fmt.next_round(entrants, [])
    # 8 = full size for 4 seats / 2 through: two tables dealt snake-wise, no bye
    assert [t.seats for t in first.tables] == [(1, 4, 5, 8), (2, 3, 6, 7)]
    played = play(fmt, entrants, better_seed_wins)
    assert len(played) == 2
    check_ranking(fmt.final_ranking(entrants, played), entrants)


def test_validation():
    with pytest.raises(FormatError, match="two-player"):
        DoubleElimination(Config(table_size=3)).validate(seeded(4))
    with pytest.raises(FormatError, match="third-place"):
        SingleElimination(Config(table_size=4, third_place=True)).validate(seeded(8))
    with pytest.raises(FormatError, match="go through"):
        SingleElimination(Config(table_size=4, advance=4)).validate(seeded(8))
    with pytest.raises(FormatError, match="late entries"):
        SingleElimination(Config()).validate(seeded(3) + [Entrant(9, joined_round=2)])
    with pytest.raises(FormatError, match="at least 2"):
        DoubleElimination(Config()).validate(seeded(1))


def test_played_round_must_match_the_bracket():
    entrants = seeded(4)
    fmt = SingleElimination(Config())
    wrong = Round(1, (Table((1, 2), TableResult((1, 2))), Table((3, 4), TableResult((1, 2)))))
    with pytest.raises(FormatError):
        fmt.next_round(entrants, [wrong])
