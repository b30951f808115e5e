"""The clock of a table of built-in bots: read now and then for bots that pick from the
legal list in microseconds, at every decision for a bot that thinks; logged times and
the time budget stay within a millisecond or so."""

import time

import pytest

from games import match_log
from games.models import Match
from games.services.runner import Runner
from tests.games.factories import EngineBotFactory, MatchFactory

pytestmark = pytest.mark.django_db


class ThinkingBot:
    """A bot that reads the state and takes its time (it offers no `choose_among`)."""

    def __init__(self, engine, pause_s: float) -> None:
        self.engine, self.pause_s = engine, pause_s

    def choose(self, state, seat):
        time.sleep(self.pause_s)
        return self.engine.legal_actions(state)[0]


def _runner(seed: int) -> Runner:
    """A started two-bot Yspahan match (its queued turn never leaves: no commit)."""
    bots = [EngineBotFactory(bot_name="random"), EngineBotFactory(bot_name="random")]
    match = MatchFactory.create(game="yspahan", players=bots, seed=seed)
    return Runner.load(Match.objects.get(pk=match.pk))


def _logged(runner: Runner, start: dict) -> list[match_log.Decision]:
    """The runner's unwritten decisions read back as the log is (plies counted from 0),
    from the state `start` (JSON) before them."""
    engine = runner.engine
    return match_log.decisions(runner.new_actions, engine, lambda: engine.from_json(start))


def test_fast_bots_log_times_in_order_within_the_run():
    runner = _runner(seed=11)
    start = runner.engine.to_json(runner.state)
    before_ms = int(time.time() * 1000)
    runner.settle(play_bots=True, budget_s=60.0)
    after_ms = int(time.time() * 1000)
    times = [d.at_ms for d in _logged(runner, start)]
    assert runner.finished and len(times) > 100
    assert times == sorted(times) and before_ms <= times[0] and times[-1] <= after_ms
    assert int(runner.match.turn_started_at.timestamp() * 1000) >= times[-1]
    # Compact: the indices, a time every stride of decisions (at most 64) and at the end.
    timed = [i for i, e in enumerate(runner.new_actions) if type(e) is not int]
    assert timed[-1] == len(times) - 1 and len(times) / 64 <= len(timed) < len(times) / 4
    assert all(b - a <= 64 for a, b in zip([-1, *timed[:-1]], timed, strict=True))


def test_a_thinking_bot_beside_a_fast_one_has_each_decision_timed():
    runner = _runner(seed=12)
    start = runner.engine.to_json(runner.state)
    runner.bots = {1: ThinkingBot(runner.engine, 0.003)}  # seat 0 keeps its random bot
    runner.settle(play_bots=True, budget_s=60.0, max_decisions=60)
    log = _logged(runner, start)
    thought = [(i, d) for i, d in enumerate(log) if d.seat == 1 and d.source == "bot"]
    assert len(thought) >= 5 and all(d.time_used_ms >= 2 for _i, d in thought)  # measured
    assert all(match_log.is_full(runner.new_actions[i]) for i, _d in thought)
    # Logged when applied, its thinking after the decision before: a time read a stride
    # of fast decisions earlier would not be.
    assert all(d.at_ms - log[i - 1].at_ms >= d.time_used_ms - 1 for i, d in thought if i > 0)
    assert [d.at_ms for d in log] == sorted(d.at_ms for d in log)


def test_the_budget_ends_a_slow_run_within_a_decision_or_two():
    runner = _runner(seed=13)
    runner.bots = {0: ThinkingBot(runner.engine, 0.004), 1: ThinkingBot(runner.engine, 0.004)}
    started = time.monotonic()
    runner.settle(play_bots=True, budget_s=0.03)
    took = time.monotonic() - started
    bots = sum(1 for e in runner.new_actions if match_log.is_full(e) and e[3] == "bot")
    assert not runner.finished and 1 <= bots <= 10 and took < 0.03 + 0.015
