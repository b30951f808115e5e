"""The ratings benchmark's ladder arithmetic and its recompute history (not its timings)."""

import pytest

from benchmarks.ratings import (
    LADDER,
    bench_history,
    head_to_head,
    kendall_tau,
    measured_order,
    pure_replay,
)


def _game(seats, ranks):
    return {"seats": seats, "ranks": ranks}


def test_head_to_head_counts_who_finished_ahead():
    games = [_game(["a", "b", "c"], [1, 2, 2]), _game(["b", "a", "c"], [1, 2, 3])]
    h2h = head_to_head(games)
    assert h2h[("a", "b")] == (1, 2) and h2h[("b", "a")] == (1, 2)
    assert h2h[("b", "c")] == (1, 2) and h2h[("c", "b")] == (0, 2)  # a shared rank is no win


def test_measured_order_follows_head_to_head_majorities():
    names = [name for name, _, _ in LADDER]
    # everybody's results in the reverse of the expected order
    games = [_game(list(reversed(names)), [1, 2, 3, 4]) for _ in range(3)]
    assert measured_order(games) == list(reversed(names))
    assert kendall_tau(measured_order(games), names) == -1.0


@pytest.mark.django_db
def test_bench_history_rows_recompute_to_the_pure_replay():
    from ratings import services
    from ratings.models import AppliedMatch, Rating, System
    from ratings.systems import openskill_rating

    pool, tables = bench_history(30, n_players=9)
    assert len(tables) == 30 and all(len(set(players)) == 4 for players, _ in tables)
    again, same = bench_history(30, n_players=9)  # kept between runs, not rebuilt
    assert again == pool and same == tables
    _, pure_elo, pure_os = pure_replay(tables, services.elo_params(pool))
    assert services.recompute(pool=pool, chunk_size=4) == 30
    assert AppliedMatch.objects.filter(pool=pool).count() == 30
    for player, system, value, games in Rating.objects.filter(pool=pool).values_list(
        "player_id", "system", "value", "games"
    ):
        if system == System.ELO:
            assert (value, games) == pure_elo[player]
        else:
            assert value == openskill_rating.ordinal(*pure_os[player])
