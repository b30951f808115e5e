"""The plumbing of benchmarks.pairing on small fields (timings are never asserted)."""

from __future__ import annotations

import io
import json

from benchmarks import pairing


def test_pairing_benchmark_writes_its_report(tmp_path):
    out = io.StringIO()
    target = tmp_path / "bench" / "pairing.json"
    rows = pairing.main(
        ["--sizes", "30,41", "--tables", "2,4", "--rounds", "2", "--quick", "--out", str(target)],
        out=out,
    )
    assert [(r["entrants"], r["table_size"]) for r in rows] == [(30, 2), (41, 2), (30, 4), (41, 4)]
    data = json.loads(target.read_text())
    assert data["target"] == {"entrants": 1000, "seconds": 1.0}
    assert data["quick"] is True and len(data["results"]) == 4
    for row in data["results"]:
        assert row["next_round_s"] > 0 and row["standings_s"] > 0 and row["tables"] > 0
        assert row["rematches"] == 0 and "x_target" not in row
    assert rows[1]["byes"] == 1
    assert "x target" in out.getvalue() and str(target) in out.getvalue()


def test_the_target_ratio_is_reported_for_a_thousand():
    row = pairing.bench_swiss(1000, 2, warmup_rounds=1, repeat=1)
    assert row["x_target"] == 1.0 / row["next_round_s"]
    assert row["tables"] == 500 and row["score_groups"] >= 2
