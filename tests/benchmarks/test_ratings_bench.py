"""The ratings benchmark's ladder arithmetic (not its timings)."""

from benchmarks.ratings import LADDER, head_to_head, kendall_tau, measured_order


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
