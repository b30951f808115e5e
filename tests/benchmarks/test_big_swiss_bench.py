"""The big-Swiss benchmark on a small field through a real worker (not its timings)."""

import pytest

from benchmarks import big_swiss
from config.celery import app as celery_app


def test_projection_divides_only_the_bot_play():
    rows = [{"handover_pairing_s": 1.0, "match_creation_s": 2.0, "last_result_s": 0.5,
             "bot_play_s": 10.0, "tables": 250}]  # fmt: skip
    one, four = big_swiss.project(rows, workers=2, machines=[1, 4], cores=2)
    assert one["round_s"] == pytest.approx(3.5 + 10.0)  # 2 local processes = 1 machine of 2
    assert four["round_s"] == pytest.approx(3.5 + 20.0 / 8)
    few = big_swiss.project([{**rows[0], "tables": 2}], workers=2, machines=[8], cores=2)[0]
    assert few["round_s"] == pytest.approx(3.5 + 20.0 / 2)  # no more processes than tables


@pytest.mark.django_db(transaction=True)
@pytest.mark.celery_worker
def test_a_small_swiss_runs_through_the_worker_and_is_cleaned_up():
    from games.models import Match, Player
    from tournaments.models import Tournament

    celery_app.control.purge()
    before = (Tournament.objects.count(), Match.objects.count(), Player.objects.count())
    out = big_swiss.main(["--entrants", "8", "--rounds", "2", "--workers", "1"])
    assert [r["round"] for r in out["per_round"]] == [1, 2]
    for r in out["per_round"]:
        assert r["tables"] == 2 and r["decisions"] > 0 and r["round_s"] > 0
        assert r["bot_play_s"] <= r["round_s"] and r["pairing_cpu_s"] >= 0
    assert out["per_round"][1]["handover_pairing_s"] >= 0
    assert [p["machines"] for p in out["projection"]] == [1, 2, 4, 8, 16]
    assert (Tournament.objects.count(), Match.objects.count(), Player.objects.count()) == before
