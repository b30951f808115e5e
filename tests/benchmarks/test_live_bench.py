"""benchmarks.live on a tiny scale: push and poll spectators on the production web server
(the ASGI app, uvicorn workers) against bot matches moved by the benchmark's driver.
Every decision reaches every spectator, plies only go forward, the streams make no
requests while the polls do. Timings are never asserted."""

from __future__ import annotations

import pytest

from benchmarks import live as bench
from games.models import Match

# 24 spectators on 2 matches (12 each), 12 of them open for the first idle measure; a
# 1 s poll so that the poll mode's spectators catch up quickly. No Chromium.
TINY = bench.LiveBenchConfig(spectators=24, matches=2, seconds=3, idle_s=1, poll_s=1,
                             batch=10, workers=1, threads=8, browser=0)  # fmt: skip


@pytest.mark.django_db(transaction=True)  # the server process must see the matches
def test_every_decision_reaches_every_spectator_by_push_and_by_poll():
    result = bench.run(TINY, settings_module="config.settings.test")
    assert set(result["modes"]) == {"push", "poll"}
    per_match = TINY.spectators // TINY.matches
    for mode, m in result["modes"].items():
        assert (m["ramp"]["opened"], m["ramp"]["failed"]) == (TINY.spectators, 0), mode
        assert m["clients_at_end"]["held"] == TINY.spectators, mode
        assert m["clients_at_end"]["errors"] == {}, mode
        assert m["connections_held"] >= TINY.spectators, mode
        # The driver moved every match about once a second.
        assert TINY.matches * (TINY.seconds - 1) <= m["commits"] <= TINY.matches * TINY.seconds
        s = m["spectators"]
        assert s["events"] > 0 and s["backwards"] == 0 and s["unseen"] == 0, (mode, s)
        # Each decision, for each of its match's spectators, measured once.
        assert s["shown"] == m["commits"] * per_match, (mode, s)
        assert s["p50_ms"] is not None and s["p95_ms"] >= s["p50_ms"], (mode, s)
    push, poll = result["modes"]["push"], result["modes"]["poll"]
    # A stream's one request is its opening; the polls go on asking.
    assert push["clients_at_end"]["statuses"] == {200: TINY.spectators}
    assert push["idle"]["requests_per_s"] == push["active"]["requests_per_s"] == 0
    # An event a move (two moves may share one when they come together).
    assert 0 < push["spectators"]["events_measured"] <= push["spectators"]["shown"]
    assert poll["active"]["requests_per_s"] > 0
    assert {200, 204} <= set(poll["clients_at_end"]["statuses"])
    assert push["active"]["bytes_in_per_spectator_30s"] > 0
    report = bench.format_report(result, "test")
    assert "commit -> receipt ms" in report and "goal:" in report
    assert [g["met"] for g in bench.goal_rows(result)][0] is None  # 24 is not 5,000
    assert not Match.objects.exists()  # the benchmark's matches are deleted


def test_latency_is_the_time_until_that_ply_or_a_later_one_is_shown():
    commits = [(11, 100.0), (12, 101.0), (13, 102.0), (14, 103.0)]
    shown = [(12, 101.5), (14, 104.0)]  # a poll skipped 11 and 13
    lat, unseen, backwards = bench.latencies(shown, commits, since=100.5)
    assert lat == [0.5, 2.0, 1.0] and unseen == 0 and backwards == 0
    lat, unseen, backwards = bench.latencies([(12, 101.5), (12, 101.6)], commits, since=0)
    assert lat == [1.5, 0.5] and unseen == 2 and backwards == 1


def test_options_override_the_defaults():
    assert bench.parse_config([]) == bench.LiveBenchConfig()
    quick = bench.parse_config(["--quick", "--spectators", "7", "--no-browser", "--modes", "push"])
    assert quick.spectators == 7 and quick.browser == 0 and quick.modes == "push"
    assert quick.seconds == bench.QUICK.seconds
