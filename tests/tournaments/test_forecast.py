"""The forecast (tournaments/forecast.py) on plain format data: probabilities, who can still
win, Monte Carlo against exact enumeration, speed."""

import itertools
import random

import pytest

from tournaments import formats
from tournaments.forecast import _problem as problem_of
from tournaments.forecast import can_still_win, forecast, order_probabilities

TWO = formats.Config(table_size=2)


def _league(n, ratings=None, played_rounds=0, results=None, config=TWO, fmt="league"):
    """A league of n with the first ``played_rounds`` rounds finished: the lower id finishes
    ahead unless ``results`` (round -> {table index: ranks}) says otherwise."""
    entrants = [
        formats.Entrant(id=i + 1, rating=(ratings[i] if ratings else 1500.0), seed=i + 1)
        for i in range(n)
    ]
    league = formats.FORMATS[fmt](config)
    rounds = []
    for number in range(1, played_rounds + 1):
        plan = league.next_round(entrants, rounds)
        tables = []
        for ti, t in enumerate(plan.tables):
            ranks = (results or {}).get(number, {}).get(ti) or tuple(
                1 + sorted(t.seats).index(e) for e in t.seats
            )
            tables.append(formats.Table(t.seats, formats.TableResult(tuple(ranks))))
        rounds.append(formats.Round(number, tuple(tables), plan.byes, plan.label))
    return entrants, rounds


def _sums_ok(result, tolerance=1e-9):
    n = len(result.entrants)
    for e in result.entrants:
        assert sum(result.places[e]) == pytest.approx(1.0, abs=tolerance)
    for place in range(n):
        assert sum(result.places[e][place] for e in result.entrants) == pytest.approx(
            1.0, abs=tolerance
        )


def test_monte_carlo_probabilities_sum_to_one_per_player_and_per_place():
    ratings = [1700, 1650, 1600, 1500, 1450, 1400]
    entrants, rounds = _league(6, ratings, played_rounds=2)
    result = forecast("league", TWO, entrants, rounds, seed=11, method="monte_carlo")
    assert result.method == "monte_carlo" and result.simulations >= 400
    _sums_ok(result)
    # The same seed gives the same numbers; another seed other numbers.
    again = forecast("league", TWO, entrants, rounds, seed=11, method="monte_carlo")
    assert again.places == result.places
    other = forecast("league", TWO, entrants, rounds, seed=12, method="monte_carlo")
    assert other.places != result.places


def test_multiplayer_tables_sum_to_one_too():
    config = formats.Config(table_size=3)
    entrants, rounds = _league(7, [1500 + 40 * i for i in range(7)], 2, config=config)
    result = forecast("league", config, entrants, rounds, seed=3, method="monte_carlo")
    _sums_ok(result)
    total = formats.League(config).total_rounds(entrants)
    late = _league(7, [1500 + 40 * i for i in range(7)], total - 1, config=config)[1]
    exact = forecast("league", config, entrants, late, seed=3)
    assert exact.method == "exact"
    _sums_ok(exact)


def test_a_player_who_cannot_catch_up_shows_zero_for_first():
    # 4 entrants, double league = 6 rounds; after 5 rounds entrant 1 won everything.
    config = formats.Config(table_size=2, double=True)
    entrants, rounds = _league(4, [1500, 1500, 1500, 2400], 5, config=config)
    result = forecast("league", config, entrants, rounds, seed=1, method="monte_carlo")
    points = {r.entrant: r.points for r in formats.compute_standings(entrants, rounds, config)}
    leader = max(points, key=points.get)
    assert result.can_win[leader] is True and result.places[leader][0] > 0
    for e in entrants:
        gap = points[leader] - points[e.id]
        if gap > 1:  # one game left: more than one point behind can't be made up
            assert result.can_win[e.id] is False
            assert result.places[e.id][0] == 0.0  # even with a 2400 rating
    assert any(points[leader] - points[e.id] > 1 for e in entrants)
    _sums_ok(result)


def test_monte_carlo_agrees_with_exact_enumeration_on_a_small_league():
    """4 entrants, 1 of 3 rounds played: 4 tables left, 16 outcomes weighted exactly.
    20,000 simulations: a standard error below 0.0036; the stated tolerance is 0.015."""
    entrants, rounds = _league(4, [1800, 1600, 1500, 1300], played_rounds=1)
    exact = forecast("league", TWO, entrants, rounds, method="exact")
    assert exact.method == "exact"
    _sums_ok(exact)
    mc = forecast("league", TWO, entrants, rounds, seed=5, method="monte_carlo", simulations=20_000)
    for e in exact.entrants:
        for place in range(4):
            assert mc.places[e][place] == pytest.approx(exact.places[e][place], abs=0.015)
    # "auto" picks the exact enumeration when the outcomes are few.
    assert forecast("league", TWO, entrants, rounds).method == "exact"


def test_exact_enumeration_by_hand_for_one_game_left():
    entrants, rounds = _league(2, [1600, 1400], played_rounds=0)
    result = forecast("league", TWO, entrants, rounds, method="exact")
    p = 1 / (1 + 10 ** (-200 / 400))  # the Elo expected score of the 1600
    assert result.places[1] == pytest.approx([p, 1 - p])
    assert result.places[2] == pytest.approx([1 - p, p])


def test_table_orders_keep_the_elo_odds():
    weights = [10 ** (r / 400) for r in (1700, 1500, 1300)]
    orders = order_probabilities(weights)
    assert sum(p for _o, p in orders) == pytest.approx(1.0)
    assert len(orders) == 6


def _brute_force_can_win(entrants, rounds, config, x):
    """Every remaining two-seat table won, drawn or lost: can x end with the most points?"""
    problem, _ = problem_of("league", config, entrants, rounds)
    base = {e: problem.points[e] + problem.byes[e] for e in problem.ids}
    for combo in itertools.product((0, 0.5, 1), repeat=len(problem.pending)):
        pts = dict(base)
        for (a, b), s in zip(problem.pending, combo, strict=True):
            pts[a] += s
            pts[b] += 1 - s
        if pts[x] >= max(pts.values()) - 1e-9:
            return True
    return False


@pytest.mark.parametrize("trial", range(12))
def test_who_can_still_win_is_exact_for_two_seat_tables(trial):
    rng = random.Random(trial)
    n = rng.choice([4, 5])
    entrants = [formats.Entrant(id=i + 1, seed=i + 1) for i in range(n)]
    league = formats.League(TWO)
    total = league.total_rounds(entrants)
    rounds = []
    for number in range(1, total - rng.choice([1, 2]) + 1):
        plan = league.next_round(entrants, rounds)
        tables = tuple(
            formats.Table(t.seats, formats.TableResult(rng.choice([(1, 2), (2, 1), (1, 1)])))
            for t in plan.tables
        )
        rounds.append(formats.Round(number, tables, plan.byes, plan.label))
    problem, _ = problem_of("league", TWO, entrants, rounds)
    answers = {e.id: can_still_win(problem, e.id) for e in entrants}
    assert answers == {e.id: _brute_force_can_win(entrants, rounds, TWO, e.id) for e in entrants}


def test_swiss_in_progress_is_simulated_and_sums_to_one():
    entrants = [formats.Entrant(id=i + 1, rating=1400 + 10 * i) for i in range(10)]
    swiss = formats.Swiss(formats.Config(table_size=2, rounds=5))
    rounds = []
    for number in (1, 2):
        plan = swiss.next_round(entrants, rounds, seed=number)
        tables = tuple(formats.Table(t.seats, formats.TableResult((1, 2))) for t in plan.tables)
        rounds.append(formats.Round(number, tables, plan.byes, plan.label))
    config = formats.Config(table_size=2, rounds=5)
    result = forecast("swiss", config, entrants, rounds, seed=2)
    assert result.method == "monte_carlo" and result.remaining_rounds == 3
    _sums_ok(result)
    # 2 points behind with 3 rounds left: can still win; everyone can here.
    assert all(result.can_win.values())


def test_finished_league_gives_the_final_places():
    entrants, rounds = _league(4, None, played_rounds=3)
    result = forecast("league", TWO, entrants, rounds)
    assert result.method == "final"
    _sums_ok(result)
    assert all(max(result.places[e]) == 1.0 for e in result.entrants)


@pytest.mark.parametrize("fmt", ["league", "swiss"])
def test_thirty_entrants_well_under_a_second(fmt):
    ratings = [1300 + 17 * i for i in range(30)]
    if fmt == "league":
        entrants, rounds = _league(30, ratings, played_rounds=10)
        config = TWO
    else:
        config = formats.Config(table_size=2, rounds=7)
        entrants = [formats.Entrant(id=i + 1, rating=ratings[i]) for i in range(30)]
        swiss = formats.Swiss(config)
        rounds = []
        plan = swiss.next_round(entrants, rounds, seed=1)
        tables = tuple(formats.Table(t.seats, formats.TableResult((1, 2))) for t in plan.tables)
        rounds.append(formats.Round(1, tables, plan.byes, plan.label))
    result = forecast(fmt, config, entrants, rounds, seed=1)
    _sums_ok(result)
    # CPU time: the wall clock of a machine shared with other test runs says little
    assert result.cpu_seconds < 1.0, (result.cpu_seconds, result.seconds)


def _brute_force_multi(problem, x):
    """Every finishing order (ties included) of every remaining table."""
    from tournaments.forecast import _rank_patterns

    per_table = []
    for seats in problem.pending:
        vectors = {
            tuple(formats.seat_points(problem.config, formats.TableResult(ranks=r)))
            for r in _rank_patterns(len(seats))
        }
        per_table.append((seats, vectors))
    base = {e: problem.points[e] + problem.byes[e] for e in problem.ids}
    for combo in itertools.product(*(v for _s, v in per_table)):
        pts = dict(base)
        for (seats, _v), vector in zip(per_table, combo, strict=True):
            for e, g in zip(seats, vector, strict=True):
                pts[e] += g
        if pts[x] >= max(pts.values()) - 1e-9:
            return True
    return False


@pytest.mark.parametrize("trial", range(8))
def test_who_can_still_win_is_exact_for_three_seat_tables(trial):
    rng = random.Random(100 + trial)
    config = formats.Config(table_size=3)
    entrants = [formats.Entrant(id=i + 1, seed=i + 1) for i in range(rng.choice([5, 6]))]
    league = formats.League(config)
    total = league.total_rounds(entrants)
    rounds = []
    for number in range(1, total - 1 + 1):  # all but the last round played
        plan = league.next_round(entrants, rounds)
        tables = []
        for t in plan.tables:
            ranks = list(range(1, len(t.seats) + 1))
            rng.shuffle(ranks)
            tables.append(formats.Table(t.seats, formats.TableResult(tuple(ranks))))
        rounds.append(formats.Round(number, tuple(tables), plan.byes, plan.label))
    problem, _ = problem_of("league", config, entrants, rounds)
    answers = {e.id: can_still_win(problem, e.id) for e in entrants}
    assert answers == {e.id: _brute_force_multi(problem, e.id) for e in entrants}


def test_thirty_entrants_at_four_seat_tables_well_under_a_second():
    config = formats.Config(table_size=4)
    entrants, rounds = _league(30, [1300 + 17 * i for i in range(30)], 4, config=config)
    result = forecast("league", config, entrants, rounds, seed=1)
    _sums_ok(result)
    # CPU time: the wall clock of a machine shared with other test runs says little
    assert result.cpu_seconds < 1.0, (result.cpu_seconds, result.seconds)
