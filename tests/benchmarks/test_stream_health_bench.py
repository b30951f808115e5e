"""benchmarks.stream_health on a small scale: with turn streams open on the production
gunicorn configuration, /health/ still answers 200 and the streams outlive gunicorn's
worker timeout. Timings are never asserted."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from benchmarks import stream_health as bench
from games.models import Player

# Few threads, so that the streams take most of them; a 3 s worker timeout that the
# 6 s streams must outlive (a sync worker would be killed at 3 s).
SMALL = bench.StreamBenchConfig(streams=6, clients=2, requests=4, workers=1, threads=10,
                                timeout=3, stream_s=6)  # fmt: skip


@pytest.mark.django_db(transaction=True)  # the server process must see the bot accounts
def test_health_answers_and_streams_outlive_the_worker_timeout():
    result = bench.run(SMALL, settings_module="config.settings.test")
    n = SMALL.clients * SMALL.requests
    assert result["streaming"]["statuses"] == {"200": n}
    assert result["idle"]["statuses"] == {"200": n}
    assert result["streams_held_s"] > SMALL.timeout
    assert result["streams_connected"] == SMALL.streams
    assert result["streams_ended"] == SMALL.streams
    assert result["p95_ratio"] > 0
    report = bench.format_report(result, "test")
    assert "6 streams open" in report and "6/6" in report
    assert not Player.objects.filter(name__startswith="stbench-").exists()
    assert not get_user_model().objects.filter(username__startswith="stbench-").exists()


def test_options_override_the_defaults():
    assert bench.parse_config([]) == bench.StreamBenchConfig()
    quick = bench.parse_config(["--quick", "--streams", "7", "--stream-s", "9"])
    assert quick.streams == 7 and quick.stream_s == 9 and quick.requests == bench.QUICK.requests
