"""The plumbing of benchmarks.greatwall_endings (figures are never asserted, only their shape)."""

from __future__ import annotations

import io
import json

from benchmarks import greatwall_endings as bench
from games.engines.greatwall.constants import ROUND_LIMIT

from .builder import build


def test_a_random_game_reports_how_it_ended():
    r = bench.play("random", 3, seed=4)
    assert r["players"] == 3 and r["decisions"] > 0
    assert r["trigger"] in ("wall+chips", "chips+chips", "safeguard")
    assert 0 <= r["announced_round"] <= r["rounds"] <= ROUND_LIMIT
    # the same seeds give the same game
    assert bench.play("random", 3, seed=4) == r


def test_the_trigger_is_read_from_the_supplies():
    chips = {0: {}, 1: {"mongol": 2}}
    assert bench._trigger(build(passive=chips, wall_supply=0)) == "wall+chips"
    assert bench._trigger(build(passive={0: {}, 1: {}}, wall_supply=3)) == "chips+chips"
    assert bench._trigger(build(passive=chips, wall_supply=3)) == "safeguard"


def test_the_summary_counts_games_and_triggers():
    games = bench.run("random", 2, games=4, first_seed=10)
    assert [g["seed"] for g in games] == [10, 11, 12, 13]
    row = bench.summary(games)
    assert row["games"] == 4
    assert row["rounds_min"] <= row["rounds_median"] <= row["rounds_max"]
    assert row["safeguard"] + row["wall+chips"] + row["chips+chips"] == 4


def test_main_prints_a_table_and_writes_json(tmp_path):
    out = io.StringIO()
    rows = bench.main(
        ["--quick", "--bots", "random", "--players", "2,4", "--out", str(tmp_path)], out=out
    )
    assert [(r["bot"], r["players"], r["games"]) for r in rows] == [
        ("random", 2, 10),
        ("random", 4, 10),
    ]
    assert "| random | 4 | 10 |" in out.getvalue()
    (written,) = tmp_path.glob("greatwall-endings-quick-*.json")
    data = json.loads(written.read_text())
    assert len(data["games"]) == 20 and len(data["rows"]) == 2


def test_logged_games_give_the_same_table(tmp_path):
    log = tmp_path / "games.jsonl"
    args = ["--quick", "--bots", "random", "--players", "3", "--out", str(tmp_path)]
    played = bench.main([*args, "--log", str(log)], out=io.StringIO())
    assert len(log.read_text().splitlines()) == 10
    out = io.StringIO()
    again = bench.main(["--from-log", str(log)], out=out)
    keys = ("players", "games", "rounds_min", "rounds_median", "rounds_max", "safeguard")
    assert [{k: r[k] for k in keys} for r in again] == [{k: r[k] for k in keys} for r in played]
    assert out.getvalue().startswith("| bot | players |")
