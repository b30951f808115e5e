"""Elo for multiplayer tables, with known numbers."""

import pytest

from ratings.systems import elo

P = elo.EloParams(k=20, provisional_k=40, provisional_games=10)


def test_two_player_known_numbers():
    # 1500 beats 1700 at K=20: E = 1/(1+10^(200/400)) = 0.2403, change = 20 * (1 - 0.2403).
    d = elo.deltas([1500, 1700], [50, 50], [1, 2], P)
    assert round(d[0], 2) == 15.19
    assert round(d[1], 2) == -15.19


def test_changes_at_a_table_sum_to_zero_with_equal_k():
    d = elo.deltas([1500, 1620, 1410, 1555], [30] * 4, [2, 1, 4, 3], P)
    assert sum(d) == pytest.approx(0.0, abs=1e-9)
    assert d[1] > 0 > d[2]


def test_four_player_table_is_k_over_n_minus_1_times_pairwise_sum():
    ratings, ranks = [1500, 1500, 1500, 1500], [1, 2, 3, 4]
    d = elo.deltas(ratings, [30] * 4, ranks, P)
    # Equal ratings: E = 0.5 each; the winner scores 3 of 3, so 20/3 * 1.5 = 10.
    assert d == pytest.approx([10.0, 10 / 3, -10 / 3, -10.0])


def test_ties_score_half():
    d = elo.deltas([1500, 1500, 1500], [30] * 3, [1, 1, 3], P)
    assert d[0] == pytest.approx(d[1]) and d[0] == pytest.approx(20 / 2 * 0.5)
    assert elo.deltas([1600, 1600], [30, 30], [1, 1], P) == pytest.approx([0.0, 0.0])


def test_provisional_k_switches_after_the_span():
    new = elo.deltas([1500, 1500], [9, 30], [1, 2], P)
    settled = elo.deltas([1500, 1500], [10, 30], [1, 2], P)
    assert new[0] == pytest.approx(20.0)  # K = 40 while fewer than 10 games
    assert settled[0] == pytest.approx(10.0)
    assert new[1] == pytest.approx(-10.0)  # the opponent's K is its own


def test_replay_applies_tables_in_order():
    state = elo.replay([(("a", "b"), (1, 2)), (("b", "a"), (1, 2))], P)
    a, b = state["a"], state["b"]
    assert a[1] == b[1] == 2
    assert a[0] + b[0] == pytest.approx(3000.0)  # both provisional: equal K, zero sum
