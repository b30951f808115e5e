"""The plumbing of benchmarks.engines, on the toy engine. Timings are never asserted."""

from __future__ import annotations

import io
import json
import math

import pytest

from benchmarks import engines as bench
from tests.games.engines.toy import TOY

TINY = bench.BenchConfig(
    random_seconds=0.0,
    random_min_games=2,
    speed_iterations=3,
    speed_decisions=2,
    greedy_games=4,
    ismcts_games=2,
    ismcts_iterations=3,
    workers=1,
)


def test_random_game_speed_reports_its_figures():
    row = bench.random_game_speed(TOY, 3, seconds=0.0, min_games=3)
    assert row["players"] == 3 and row["games"] == 3
    assert 0 < row["median_ms"] <= row["p90_ms"]
    assert row["games_per_s"] > 0 and row["decisions_per_game"] > 0


def test_ismcts_speed_times_the_requested_decisions():
    row = bench.ismcts_speed(TOY, 2, iterations=4, decisions=3)
    assert row["decisions"] == 3 and row["iterations"] == 4
    assert row["iterations_per_s"] > 0


def test_sampled_positions_are_real_choices():
    for state in bench.sample_positions(TOY, 4, 5, seed=3):
        assert not TOY.is_over(state)
        assert len(TOY.legal_actions(state)) > 1


@pytest.mark.parametrize("workers", [1, 2])
def test_strength_alternates_seats_and_counts_results(workers):
    row = bench.strength(TOY, "greedy", "random", players=2, games=6, workers=workers, seed=5)
    assert row["games"] == 6
    assert row["wins"] + row["other"] + row["losses"] == 6
    assert 0.0 <= row["ci95"][0] <= row["rate"] <= row["ci95"][1] <= 1.0
    assert row["candidate"] == "greedy" and row["baseline"] == "random"


def test_strength_games_replay_each_deal_from_every_seat():
    specs_seen = []
    original = bench.play_match

    def spy(spec):
        specs_seen.append((spec.seed, spec.candidate_seat))
        return original(spec)

    bench.play_match, saved = spy, bench.play_match
    try:
        bench.strength(TOY, "random", "random", players=3, games=6, workers=1, seed=10)
    finally:
        bench.play_match = saved
    assert specs_seen == [(10, 0), (10, 1), (10, 2), (11, 0), (11, 1), (11, 2)]


def test_strength_is_reproducible_with_an_iteration_budget():
    params = {"iterations": 3, "rollout_depth": 4}
    first = bench.strength(TOY, "ismcts", "greedy", games=2, candidate_params=params)
    second = bench.strength(TOY, "ismcts", "greedy", games=2, candidate_params=params)
    assert first["rate"] == second["rate"]


def test_play_match_scores_the_candidate():
    spec = bench.MatchSpec(engine=TOY, players=4, seed=1, candidate_seat=2, candidate="greedy")
    result = bench.play_match(spec)
    assert result["seat"] == 2 and 0.0 <= result["score"] <= 1.0 and result["decisions"] > 0


def test_wilson_interval():
    low, high = bench.wilson_interval(8, 10)
    assert math.isclose(low, 0.4902, abs_tol=1e-3) and math.isclose(high, 0.9433, abs_tol=1e-3)
    assert bench.wilson_interval(0, 0) == (0.0, 1.0)
    assert bench.wilson_interval(5, 5)[1] == 1.0


def test_player_counts_include_two_four_and_max():
    assert bench.player_counts(TOY) == [2, 4]


def test_bench_engine_report_and_json(tmp_path):
    result = bench.bench_engine(TOY, TINY)
    assert [r["players"] for r in result["random_games"]] == [2, 4]
    assert [r["players"] for r in result["ismcts_speed"]] == [2, 4]
    assert [(r["candidate"], r["baseline"]) for r in result["strength"]] == [
        ("greedy", "random"),
        ("ismcts", "greedy"),
    ]
    report = bench.format_report(result, TINY)
    assert "Toy Bank (toy)" in report
    assert "greedy vs random" in report and "ismcts(3it) vs greedy" in report
    assert "x target" in report
    path = bench.write_json([result], TINY, tmp_path / "bench", quick=True)
    data = json.loads(path.read_text())
    assert data["results"][0]["slug"] == "toy"
    assert data["targets"]["greedy_vs_random_2p"] == 0.8
    assert data["config"]["greedy_games"] == 4


def test_parse_args_quick_and_overrides():
    _, config = bench.parse_args(["--quick"])
    assert config == bench.QUICK
    _, config = bench.parse_args(
        [
            "--greedy-games",
            "7",
            "--ismcts-games",
            "3",
            "--ismcts-time",
            "0.5",
            "--workers",
            "1",
            "--strength-players",
            "2,3",
            "--no-strength",
            "--options",
            '{"values": 6}',
        ]
    )
    assert (config.greedy_games, config.ismcts_games, config.ismcts_time_s) == (7, 3, 0.5)
    assert config.strength_players == (2, 3) and config.strength is False
    assert config.options == {"values": 6}
    assert bench.BenchConfig().greedy_games >= 200


def test_main_runs_a_registered_game_and_writes_json(monkeypatch, tmp_path):
    from games.engines import registry

    monkeypatch.setattr(registry, "ENGINES", {**registry.ENGINES, "toy": TOY})
    out = io.StringIO()
    results = bench.main(
        [
            "--game",
            "toy",
            "--quick",
            "--random-seconds",
            "0",
            "--speed-iterations",
            "2",
            "--greedy-games",
            "2",
            "--ismcts-games",
            "2",
            "--ismcts-iterations",
            "2",
            "--workers",
            "2",
            "--out",
            str(tmp_path),
        ],
        out=out,
    )
    assert results[0]["slug"] == "toy"
    assert "results written to" in out.getvalue()
    assert len(list(tmp_path.glob("engines-toy-quick-*.json"))) == 1


def test_main_rejects_an_unknown_game(tmp_path):
    with pytest.raises(SystemExit, match="unknown game"):
        bench.main(["--game", "nope", "--out", str(tmp_path)], out=io.StringIO())
