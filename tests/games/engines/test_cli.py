"""Playing a bot game in the terminal (games.engines.cli, behind ``manage.py play``)."""

from __future__ import annotations

import io
import re

import pytest

from games.engines.base import InvalidOptions
from games.engines.cli import play_game, seat_bots
from tests.games.engines.toy import TOY

LOG_LINE = re.compile(r"^\s*\d+\s+seat \d+ \(\w+\): ")


def _log_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if LOG_LINE.match(line)]


def test_seat_bots_cycles_a_short_list_and_takes_an_exact_one():
    assert seat_bots(["greedy"], 3) == ["greedy", "greedy", "greedy"]
    assert seat_bots(["ismcts", "random"], 3) == ["ismcts", "random", "ismcts"]
    assert seat_bots(["random", "greedy", "ismcts"], 3) == ["random", "greedy", "ismcts"]


@pytest.mark.parametrize(
    ("bots", "reason"),
    [([], "at least one"), (["random"] * 3, "3 bots named for 2"), (["clever"], "unknown bot")],
)
def test_seat_bots_rejects_bad_lists(bots, reason):
    with pytest.raises(ValueError, match=reason):
        seat_bots(bots, 2)


def test_play_game_prints_a_log_and_the_outcome():
    out = io.StringIO()
    game = play_game(TOY, 3, ["ismcts", "greedy", "random"], seed=4, out=out, iterations=8)
    text = out.getvalue()
    assert TOY.is_over(game.state)
    assert game.seats == ["ismcts", "greedy", "random"]
    log_lines = _log_lines(text)
    assert len(log_lines) == len(game.actions)
    assert log_lines[0].split()[0] == "1"
    assert "(ismcts):" in log_lines[0]
    assert f"game over after {len(game.actions)} decisions" in text
    assert "rank  seat  bot" in text
    for seat, score in enumerate(game.outcome["scores"]):
        assert any(
            line.split()[1:4] == [str(seat), game.seats[seat], str(score)]
            for line in text.splitlines()
        )


def test_the_log_describes_each_action_before_it_is_applied():
    out = io.StringIO()
    game = play_game(TOY, 2, ["random"], seed=1, out=out)
    state = TOY.new_game(players=2, seed=1)
    first = TOY.describe(state, game.actions[0])
    assert _log_lines(out.getvalue())[0].endswith(f"seat 0 (random): {first}")


def test_play_game_is_reproducible_and_quiet_mode_prints_only_the_outcome():
    loud, quiet = io.StringIO(), io.StringIO()
    first = play_game(TOY, 2, ["greedy", "ismcts"], seed=9, out=loud, iterations=5)
    second = play_game(TOY, 2, ["greedy", "ismcts"], seed=9, out=quiet, iterations=5, quiet=True)
    assert first.actions == second.actions
    assert len(quiet.getvalue().splitlines()) < 10 < len(loud.getvalue().splitlines())


def test_play_game_checks_players_and_options():
    with pytest.raises(InvalidOptions):
        play_game(TOY, 7, ["random"], seed=0)
    with pytest.raises(InvalidOptions):
        play_game(TOY, 2, ["random"], seed=0, options={"suits": 9})
    # A bad ismcts budget is refused even when no seat would use it.
    with pytest.raises(ValueError, match="iterations"):
        play_game(TOY, 2, ["random"], seed=0, iterations=0)
    with pytest.raises(ValueError, match="time_s"):
        play_game(TOY, 2, ["random"], seed=0, time_s=-1)
