"""The clock of a table of built-in bots: read now and then for bots that pick from the
legal list in microseconds, at every decision for a bot that thinks; logged times and
the time budget stay within a millisecond or so."""

import time

import pytest

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


def test_fast_bots_log_times_in_order_within_the_run():
    runner = _runner(seed=11)
    before_ms = int(time.time() * 1000)
    runner.settle(play_bots=True, budget_s=60.0)
    after_ms = int(time.time() * 1000)
    times = [entry[5] for entry in runner.new_actions]
    assert runner.finished and len(times) > 100
    assert times == sorted(times) and before_ms <= times[0] and times[-1] <= after_ms
    assert int(runner.match.turn_started_at.timestamp() * 1000) >= times[-1]


def test_a_thinking_bot_beside_a_fast_one_has_each_decision_timed():
    runner = _runner(seed=12)
    runner.bots = {1: ThinkingBot(runner.engine, 0.003)}  # seat 0 keeps its random bot
    runner.settle(play_bots=True, budget_s=60.0, max_decisions=60)
    thought = [(i, e) for i, e in enumerate(runner.new_actions) if e[0] == 1 and e[3] == "bot"]
    assert len(thought) >= 5 and all(e[4] >= 2 for _i, e in thought)  # ms used, measured
    # Logged when applied, its thinking after the decision before: a time read a stride
    # of fast decisions earlier would not be.
    log = runner.new_actions
    assert all(e[5] - log[i - 1][5] >= e[4] - 1 for i, e in thought if i > 0)
    assert [e[5] for e in log] == sorted(e[5] for e in log)


def test_the_budget_ends_a_slow_run_within_a_decision_or_two():
    runner = _runner(seed=13)
    runner.bots = {0: ThinkingBot(runner.engine, 0.004), 1: ThinkingBot(runner.engine, 0.004)}
    started = time.monotonic()
    runner.settle(play_bots=True, budget_s=0.03)
    took = time.monotonic() - started
    bots = sum(1 for e in runner.new_actions if e[3] == "bot")
    assert not runner.finished and 1 <= bots <= 10 and took < 0.03 + 0.015
