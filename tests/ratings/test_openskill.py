"""OpenSkill numbers equal the package's own."""

from openskill.models import PlackettLuce

from ratings.systems import openskill_rating


def test_update_equals_the_package():
    model = PlackettLuce()
    states = [(25.0, 8.333), (27.0, 6.0), (22.0, 7.5), (30.0, 3.0)]
    ranks = [2, 1, 4, 3]
    expected = model.rate([[model.rating(mu=m, sigma=s)] for m, s in states], ranks=ranks)
    ours = openskill_rating.update(states, ranks)
    assert ours == [(t[0].mu, t[0].sigma) for t in expected]


def test_ordinal_and_win_probabilities():
    assert openskill_rating.ordinal(25.0, 8.0) == 1.0
    win = openskill_rating.win_probabilities([(30.0, 2.0), (20.0, 2.0)])
    assert win[0] > 0.9 and abs(sum(win) - 1) < 1e-9
