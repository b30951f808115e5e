"""Matches run by a real Celery worker process on the configured broker and database."""

import pytest
from django.utils import timezone

from config.celery import app as celery_app
from config.worker_process import celery_worker, wait_for
from games.engines.registry import ENGINES, get_engine
from games.models import Match, MatchStatus
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, MatchFactory, logged
from tests.processes import kill_hard

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


@pytest.fixture(autouse=True)
def _empty_queue():
    celery_app.control.purge()


def _status(pk):
    return Match.objects.get(pk=pk).status


def _assert_clean_log(match):
    plies = list(d.ply for d in logged(match))
    assert plies == list(range(match.ply))


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_four_bot_match_of_each_engine_finishes_through_the_worker(game):
    engine = get_engine(game)
    n = min(4, engine.max_players)
    bots = [
        EngineBotFactory(bot_name=name) for name in ["random", "greedy", "random", "greedy"][:n]
    ]
    with celery_worker() as worker:
        match = MatchFactory.create(game=game, players=bots, seed=21)
        wait_for(
            lambda: _status(match.pk) == MatchStatus.FINISHED,
            timeout=120,
            what="match end",
            worker=worker,
        )
    match.refresh_from_db()
    _assert_clean_log(match)
    assert sorted(match.outcome["ranks"]) == sorted(get_engine(game).outcome(
        engine.from_json(match.state))["ranks"])  # fmt: skip


def test_deadline_expiry_applies_the_policy_within_two_seconds():
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    with celery_worker() as worker:
        match = MatchFactory.create(players=[alice, bob], time_control={"per_move_s": 1},
                                    timeout_policy="forfeit")  # fmt: skip
        ply, seat, deadline = match.ply, match.to_act, match.deadline
        timed_out = wait_for(
            lambda: next(iter(logged(match, ply=ply, source="timeout")), None),
            timeout=15, what="the time-out", worker=worker,
        )  # fmt: skip
    assert timed_out.seat == seat
    assert (timed_out.created_at - deadline).total_seconds() < 2.0
    assert match.seats.get(index=seat).forfeited


def test_worker_killed_mid_match_loses_nothing_after_restart():
    # Bots slow enough that the match lasts seconds; the kill follows the first commit.
    bots = [EngineBotFactory(bot_name="ismcts", bot_params={"iterations": 30}) for _ in range(3)]
    with celery_worker(beat=True) as worker:
        match = MatchFactory.create(players=bots, seed=8)
        wait_for(
            lambda: Match.objects.get(pk=match.pk).ply >= 1,
            timeout=90,
            what="a first batch",
            worker=worker,
        )
        kill_hard(worker)
    stopped_at = Match.objects.get(pk=match.pk)
    assert stopped_at.status == MatchStatus.RUNNING, "the kill must land mid-match"
    # The new worker's beat sweeps the stalled bot turn back into the queue.
    with celery_worker(beat=True) as worker:
        wait_for(
            lambda: _status(match.pk) == MatchStatus.FINISHED,
            timeout=240,
            what="match end",
            worker=worker,
        )
    match.refresh_from_db()
    assert match.ply > stopped_at.ply
    _assert_clean_log(match)
    assert match.finished_at <= timezone.now()
