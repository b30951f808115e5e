"""The operations-page benchmark builds the history it claims and measures the real page
(its timings are printed, never asserted)."""

import pytest

from benchmarks import operations_page as bench

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_bench_history_shows_its_overdue_matches_and_pending_pools():
    from games.models import Match, MatchStatus
    from ratings.models import RatingPool

    made = bench.populate(3000)
    assert Match.objects.filter(variant__name=bench.BENCH).count() == 3000
    assert Match.objects.filter(status=MatchStatus.RUNNING).count() == 60
    result = bench.measure(repeat=1)
    assert result["overdue_shown"] == bench.OVERDUE
    assert len(result["pending_by_pool"]) == 2 * len(bench.GAMES)  # a bench and a default pool each
    assert set(result["pending_by_pool"].values()) == {bench.PENDING_PER_GAME}
    assert made["applied"] > 0 and result["first_ms"] > 0
    bench.cleanup()
    assert not Match.objects.filter(variant__name=bench.BENCH).exists()
    assert not RatingPool.objects.filter(name__startswith=bench.BENCH).exists()
