"""The plumbing of benchmarks.standings_latency on a tiny tournament. Timings are never asserted."""

from __future__ import annotations

from collections import Counter

import pytest

from benchmarks import standings_latency as bench
from games.models import Player
from tournaments.models import Tournament

TINY = bench.BenchConfig(
    entrants=6, table_size=2, rounds=2, clients=3, requests=3, workers=1, threads=2, passes=2
)


@pytest.mark.django_db(transaction=True)  # the server process must see the tournament
def test_run_measures_every_endpoint_on_a_real_server_and_cleans_up():
    result = bench.run(TINY, settings_module="config.settings.test")
    phases = result["phases"]
    assert set(phases) == {"health", "standings", "standings_304"}
    requests = TINY.clients * TINY.requests
    assert phases["health"]["statuses"] == {"200": requests}
    assert phases["standings"]["statuses"] == {"200": requests}
    # Viewers who already have the fragment get "not modified".
    assert phases["standings_304"]["statuses"] == {"304": requests}
    for phase in phases.values():
        assert phase["requests"] == requests
        assert 0 < phase["p50_ms"] <= phase["p95_ms"] <= phase["max_ms"]
    assert set(result["p95_ratio_to_health"]) == {"standings", "standings_304"}
    assert all(r > 0 for r in result["p95_ratio_to_health"].values())
    assert result["first_render_ms"] > 0
    report = bench.format_report(result, "sqlite3")
    assert "fragment (If-None-Match)" in report and "/health/" in report
    assert not Tournament.objects.exists()
    assert not Player.objects.filter(name__startswith="sbench-").exists()


@pytest.mark.django_db
def test_setup_records_all_rounds_but_the_last_half_way():
    from tournaments.models import Table

    setup = bench.setup_tournament(entrants=8, table_size=2, rounds=3, seed=2)
    t = Tournament.objects.get(pk=setup["tournament"])
    assert t.status == "running" and t.current_round == 3 and t.entries.count() == 8
    finished = Counter(
        Table.objects.filter(round__tournament=t, status="finished").values_list(
            "round__number", flat=True
        )
    )
    assert finished == {1: 4, 2: 4, 3: 2}
    bench.delete_tournament(setup)
    assert not Tournament.objects.filter(pk=t.pk).exists()


def test_percentiles_are_nearest_rank():
    values = list(range(1, 101))
    assert bench.percentile(values, 50) == 50
    assert bench.percentile(values, 95) == 95
    assert bench.percentile([7.0], 95) == 7.0
    summary = bench.summarise([0.001, 0.002, 0.004], Counter({200: 3, "error": 1}), 1.0)
    assert summary["requests"] == 4 and summary["statuses"] == {"200": 3, "error": 1}
    assert summary["p50_ms"] == pytest.approx(2.0) and summary["max_ms"] == pytest.approx(4.0)


def test_quick_and_options_override_the_defaults():
    assert bench.parse_config([]) == bench.BenchConfig()
    quick = bench.parse_config(["--quick", "--clients", "7", "--table-size", "3"])
    assert quick.clients == 7 and quick.table_size == 3
    assert quick.requests == bench.QUICK.requests < bench.BenchConfig().requests
