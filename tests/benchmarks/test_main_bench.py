"""`python -m benchmarks`: one benchmark by name, and the summary beside the goals."""

import sys

import pytest

from benchmarks import __main__ as bench_main


def test_summary_prints_each_figure_beside_its_goal(capsys):
    bench_main.print_summary([
        {"figure": "bot match yspahan 4p", "value": "1.20x", "goal": "<= 1.5x", "ratio": 0.8,
         "met": True},
        {"figure": "recompute", "value": "12.00x", "goal": "<= 10x", "ratio": 1.2, "met": False},
        {"figure": "big Swiss", "value": "35 s", "goal": "measured", "ratio": None, "met": None},
    ])  # fmt: skip
    lines = capsys.readouterr().out.splitlines()
    yspahan = next(line for line in lines if "yspahan" in line)
    assert "1.20x" in yspahan and "<= 1.5x" in yspahan and "0.80 of goal" in yspahan
    assert yspahan.rstrip().endswith("met") and "NOT met" in next(
        x for x in lines if "recompute" in x
    )


def test_an_unknown_benchmark_name_is_refused(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["benchmarks", "nonsense"])
    with pytest.raises(SystemExit, match="unknown benchmark"):
        bench_main.main()
