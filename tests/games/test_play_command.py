"""``manage.py play``: a thin wrapper around games.engines.cli.play_game."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.games.engines.toy import TOY


@pytest.fixture
def toy_registered(monkeypatch):
    from games.engines import registry

    monkeypatch.setattr(registry, "ENGINES", {**registry.ENGINES, "toy": TOY})


def _play(*args: str) -> str:
    from io import StringIO

    out = StringIO()
    call_command("play", *args, stdout=out)
    return out.getvalue()


def test_play_prints_the_game(toy_registered):
    text = _play(
        "toy", "--players", "3", "--bots", "ismcts,greedy", "--seed", "2", "--iterations", "5"
    )
    assert "seat 2: ismcts" in text
    assert "(greedy):" in text
    assert "game over after" in text


def test_play_accepts_options_time_and_quiet(toy_registered):
    text = _play(
        "toy", "--bots", "ismcts,random", "--options", '{"values": 6}', "--time", "0.001", "--quiet"
    )
    assert "(random):" not in text
    assert "rank  seat  bot" in text


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["nope"], "unknown game"),
        (["toy", "--options", "{"], "not valid JSON"),
        (["toy", "--options", "[1]"], "JSON object"),
        (["toy", "--options", '{"suits": 1}'], r"^Suits: at least 2\.$"),
        (["toy", "--players", "9"], "2-4 players"),
        (["toy", "--bots", "clever"], "unknown bot"),
    ],
)
def test_play_reports_bad_input_as_command_errors(toy_registered, args, reason):
    with pytest.raises(CommandError, match=reason):
        _play(*args)
