"""The plumbing of benchmarks.pairing on small fields (timings are never asserted)."""

from __future__ import annotations

import io
import json

from benchmarks import pairing
from tournaments.formats import Round, Table, TableResult


def test_pairing_benchmark_writes_its_report(tmp_path):
    out = io.StringIO()
    target = tmp_path / "bench" / "pairing.json"
    rows = pairing.main(
        [
            *("--sizes", "30,41", "--tables", "2,4", "--rounds", "2", "--quick"),
            *("--no-quality", "--out", str(target)),
        ],
        out=out,
    )
    assert [(r["entrants"], r["table_size"]) for r in rows] == [(30, 2), (41, 2), (30, 4), (41, 4)]
    data = json.loads(target.read_text())
    assert data["target"] == {"entrants": 1000, "seconds": 1.0}
    assert data["quick"] is True and len(data["results"]) == 4 and data["quality"] is None
    for row in data["results"]:
        assert row["next_round_s"] > 0 and row["standings_s"] > 0 and row["tables"] > 0
        # multiplayer: points first, so score groups may force a repeat (swiss.py)
        assert row["table_size"] > 2 or row["rematches"] == 0
        assert "x_target" not in row
    assert rows[1]["byes"] == 1
    assert "x target" in out.getvalue() and str(target) in out.getvalue()


def test_the_target_ratio_is_reported_for_a_thousand():
    row = pairing.bench_swiss(1000, 2, warmup_rounds=1, repeat=1)
    assert row["x_target"] == 1.0 / row["next_round_s"]
    assert row["tables"] == 500 and row["score_groups"] >= 2


def test_repeat_figures_count_rounds_and_check_them():
    fast = pairing.bench_repeats(24, 4, rounds=6, seeds=(0, 1), search_budget=0)
    assert fast["rounds"] == 12 and fast["search_budget"] == 0
    assert 0 <= fast["avoidable_repeat_rounds"] + fast["unknown"] <= fast["rounds_with_repeats"]
    full = pairing.bench_repeats(24, 4, rounds=6, seeds=(0, 1))
    assert full["search_budget"] == pairing.Swiss.search_budget > 0
    # "avoidable" by any grouping; the format keeps score groups first (swiss.py)
    assert full["avoidable_repeat_rounds"] <= fast["avoidable_repeat_rounds"]


def test_repeat_free_check_is_exact():
    # four players who all met need four tables: not with 8 players, yes with 16
    played = [Round(1, (Table((1, 2, 3, 4), TableResult((1, 2, 3, 4))),))]
    history = pairing.History.of(played)
    rnd = Round(2, (Table((1, 2, 5, 6)), Table((3, 4, 7, 8))))
    assert pairing.repeat_free_exists(rnd, history, 1000) is False
    tables = tuple(Table(tuple(range(i, i + 4))) for i in range(1, 17, 4))
    assert pairing.repeat_free_exists(Round(2, tables), history, 1000) is True


def test_colour_and_hard_round_figures():
    colours = pairing.bench_colours((10, 11), rounds=5, seeds=(0, 1))
    assert colours["pairings"] == 2 * 5 * 5 + 2 * 5 * 5
    assert 0 <= colours["violations"] <= 2 * colours["pairings"]
    assert pairing.colour_violations([0, 0, 0]) and not pairing.colour_violations([0, 0, 1])
    hard = pairing.bench_hard_round(entrants=96, rounds=12, block=16)
    assert hard["fallback_repeats"] <= hard["fast_repeats"]
    text = pairing.format_quality(
        {"repeats": [pairing.bench_repeats(16, 4, rounds=2, seeds=(0,))], "hard_round": hard,
         "colours": [colours]}
    )  # fmt: skip
    assert "avoidable" in text and "per 100 pairings" in text
