"""Bot turns of several matches in one task: how a burst is split into tasks, playing
and writing several matches at once, one broken match not stopping the others,
re-runs writing nothing, and the matches a commit ends announced together."""

import random

import pytest
from celery.signals import before_task_publish
from celery.utils.saferepr import saferepr
from django.db import connection, transaction

from config.celery import app as celery_app
from games import services
from games.engines.registry import get_engine
from games.models import Match, MatchLog, MatchStatus
from games.services import bot_play, dispatch
from games.signals import match_finished
from operations.selectors import queue_lengths
from tests.games.factories import EngineBotFactory, MatchFactory, logged

pytestmark = pytest.mark.django_db

GAMES = [("silkroad", 2), ("yspahan", 4), ("greatwall", 2), ("silkroad", 4), ("yspahan", 2)]


def _pending(seed0: int = 40) -> list[Match]:
    """Bot matches created but not started (their first turn not yet queued)."""
    bot = EngineBotFactory(bot_name="random")
    return [
        MatchFactory.create(game=g, players=[bot] * n, seed=seed0 + i, start=False)
        for i, (g, n) in enumerate(GAMES)
    ]


def _started(seed0: int = 40) -> list[Match]:
    matches = _pending(seed0)
    for m in matches:
        services.start_match(match_id=m.pk)
        m.refresh_from_db()
    return matches


def _turns(matches) -> list[tuple[int, int]]:
    return [(m.pk, Match.objects.get(pk=m.pk).ply) for m in matches]


def _played_in_memory(turns) -> list:
    """The turns' runners with their bots' play computed, nothing written yet."""
    runners = services.runner.Runner.load_many(turns)
    for r in runners:
        r.settle(play_bots=True, budget_s=60.0)
    return runners


def _play_alone(match: Match) -> Match:
    ply = Match.objects.get(pk=match.pk).ply
    while ply is not None:
        ply = services.play_bot_decisions(match_id=match.pk, ply=ply)
    return Match.objects.get(pk=match.pk)


@pytest.mark.parametrize("seed", range(30))
def test_chunks_are_even_bounded_and_keep_every_turn_in_order(seed):
    rng = random.Random(seed)
    n, most, spread = rng.randrange(0, 120), rng.randrange(1, 20), rng.randrange(1, 8)
    turns = [(i, 0) for i in range(n)]
    parts = dispatch.chunks(turns, most=most, spread=spread)
    assert [t for part in parts for t in part] == turns
    if n:
        sizes = [len(p) for p in parts]
        assert max(sizes) <= most and max(sizes) - min(sizes) <= 1 and min(sizes) >= 1
        assert len(parts) >= min(n, spread)
        # no more tasks than needed for both bounds
        assert len(parts) == max(-(-n // most), min(n, spread))
    else:
        assert parts == []


def test_bot_turns_committed_together_go_out_in_a_few_tasks(
    django_capture_on_commit_callbacks, settings
):
    assert settings.BOT_TASK_SPREAD == settings.WORKER_CONCURRENCY  # one task a pool process
    settings.BOT_TASK_SPREAD = 4  # a site whose workers run four pool processes together
    celery_app.control.purge()
    bot = EngineBotFactory(bot_name="random")
    matches = [
        MatchFactory.create(game="yspahan", players=[bot, bot], seed=s, start=False)
        for s in range(20)
    ]
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        for m in matches:
            services.start_match(match_id=m.pk)
    # 20 turns: four tasks of five (spread over 4), not twenty tasks
    assert queue_lengths().total == 4
    celery_app.control.purge()
    # a turn outside any transaction goes out at once, alone
    lone = MatchFactory.create(game="yspahan", players=[bot, bot], seed=99, start=False)
    with django_capture_on_commit_callbacks(execute=True):
        services.start_match(match_id=lone.pk)
    assert queue_lengths().total == 1
    celery_app.control.purge()


def test_bot_turn_tasks_carry_the_text_celery_would_make_of_their_arguments(settings):
    # The task class gives the arguments' text itself (Celery's saferepr was a quarter
    # of the publish): a real publish carries the text Celery's own would be.
    settings.BOT_TASK_SPREAD = 1  # one task
    sent = []

    def record(sender=None, body=None, headers=None, **kwargs):
        sent.append((body[0], headers["argsrepr"], headers["kwargsrepr"]))

    before_task_publish.connect(record, weak=False)
    try:
        dispatch.send_bot_turns([(7, 3), (8, 0), (7, 5), (12, 140)])
    finally:
        before_task_publish.disconnect(record)
        celery_app.control.purge()
    [(args, argsrepr, kwargsrepr)] = sent
    assert list(args) == [[[7, 5], [8, 0], [12, 140]]]  # match 7 once, from its later ply
    assert argsrepr == saferepr(tuple(args)) == "([[7, 5], [8, 0], [12, 140]],)"
    assert kwargsrepr == saferepr({})


def test_a_turn_queued_in_a_rolled_back_savepoint_does_not_lose_the_others(
    django_capture_on_commit_callbacks,
):
    celery_app.control.purge()
    bot = EngineBotFactory(bot_name="random")
    a, b = (MatchFactory.create(game="silkroad", players=[bot, bot], seed=s, start=False)
            for s in (1, 2))  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        try:
            with transaction.atomic():
                services.start_match(match_id=a.pk)  # registers the burst in the savepoint
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
        services.start_match(match_id=b.pk)  # must register a fresh burst
    assert Match.objects.get(pk=a.pk).status == MatchStatus.PENDING
    assert queue_lengths().total == 1
    celery_app.control.purge()


def test_several_matches_in_one_call_end_exactly_as_each_played_alone():
    _assert_together_equals_alone(40)


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_groups_of_writes_overlap_the_play_and_all_land():
    # No caller's transaction: on PostgreSQL the round is written a group at a time
    # through psycopg's pipeline (three statements for 10 matches), elsewhere at once.
    _assert_together_equals_alone(140, copies=2)


def _assert_together_equals_alone(seed0: int, copies: int = 1) -> None:
    together = [m for c in range(copies) for m in _started(seed0 + 10 * c)]
    assert bot_play.play_bot_turns(_turns(together)) == []
    alone = [_play_alone(m) for c in range(copies) for m in _started(seed0 + 10 * c)]
    for t, a in zip(together, alone, strict=True):
        t.refresh_from_db()
        assert t.status == a.status == MatchStatus.FINISHED
        assert (t.state, t.outcome["ranks"], t.ply) == (a.state, a.outcome["ranks"], a.ply)
        log = [(d.ply, d.seat, d.action, d.source) for d in logged(t)]
        assert log == [(d.ply, d.seat, d.action, d.source) for d in logged(a)]
        assert [ply for ply, *_ in log] == list(range(t.ply))
        engine = get_engine(t.game)
        assert t.outcome["ranks"] == engine.outcome(engine.from_json(t.state))["ranks"]
        assert [s.rank for s in t.seats.order_by("index")] == t.outcome["ranks"]


def test_a_rerun_of_the_same_turns_writes_nothing():
    matches = _started(60)
    turns = _turns(matches)
    assert bot_play.play_bot_turns(turns) == []
    before = {m.pk: (Match.objects.get(pk=m.pk).updated_at, MatchLog.objects.get(match=m).entries)
              for m in matches}  # fmt: skip
    assert bot_play.play_bot_turns(turns) == []  # a redelivered task
    after = {m.pk: (Match.objects.get(pk=m.pk).updated_at, MatchLog.objects.get(match=m).entries)
             for m in matches}  # fmt: skip
    assert after == before


def test_a_match_moved_meanwhile_is_skipped_and_the_others_written():
    matches = _started(70)
    turns = _turns(matches)
    runners = _played_in_memory(turns)
    _play_alone(matches[1])  # another copy finished this one first
    moved = MatchLog.objects.get(match=matches[1]).entries
    with bot_play.RoundWrites() as writes:
        for r, (_, ply) in zip(runners, turns, strict=True):
            writes.add(r, ply)
    written = writes.written
    assert [r.match.pk for r in written] == [m.pk for i, m in enumerate(matches) if i != 1]
    assert MatchLog.objects.get(match=matches[1]).entries == moved
    assert all(Match.objects.get(pk=m.pk).status == MatchStatus.FINISHED for m in matches)


def _index(entry) -> int:
    """A compact log entry's index among the legal actions (games.match_log)."""
    return entry if type(entry) is int else entry[0]


@pytest.mark.django_db(transaction=True)
def test_a_group_sent_mid_round_lets_its_runners_forget_the_decisions_sent():
    # Outside a transaction on PostgreSQL, a group's statement is on its way once it has
    # WRITE_GROUP matches: their log entries are no longer held (elsewhere the round is
    # written when it ends, and they are held until then). Every log still lands whole.
    matches = _started(80)
    turns = _turns(matches)
    runners = _played_in_memory(turns)
    logs = [[_index(e) for e in r.new_actions] for r in runners]
    assert bot_play.WRITE_GROUP == 4 and len(runners) == 5 and all(logs)
    with bot_play.RoundWrites() as writes:
        for r, (_, ply) in zip(runners, turns, strict=True):
            writes.add(r, ply)
        held = [len(r.new_actions) for r in runners]
    sent_mid_round = connection.vendor == "postgresql"
    assert held[:4] == ([0] * 4 if sent_mid_round else [len(log) for log in logs[:4]])
    assert held[4] == len(logs[4])  # the fifth's group went out when the round ended
    assert [r.match.pk for r in writes.written] == [m.pk for m in matches]
    for m, log in zip(matches, logs, strict=True):
        entries = MatchLog.objects.get(match=m).entries
        assert [_index(e) for e in entries[-len(log) :]] == log
        assert len(entries) == Match.objects.get(pk=m.pk).ply


def test_one_broken_match_fails_the_task_but_not_the_other_matches():
    matches = _started(80)
    broken = matches[2]
    Match.objects.filter(pk=broken.pk).update(state={"not": "a state"})
    before = Match.objects.get(pk=broken.pk)
    with pytest.raises(services.BotPlayFailed, match=str(broken.pk)):
        bot_play.play_bot_turns(_turns(matches))
    for m in matches:
        m.refresh_from_db()
        if m.pk == broken.pk:
            assert (m.ply, m.status, m.updated_at) == (before.ply, before.status, before.updated_at)
        else:
            assert m.status == MatchStatus.FINISHED
    # its lease is released with the others: once repaired, the sweep's task plays it
    assert not bot_play.leases_held([(broken.pk, before.ply)])


def test_the_matches_a_round_ends_are_announced_once_together(django_capture_on_commit_callbacks):
    heard = []

    def listen(sender, match_ids, rated_ids, **kwargs):
        heard.append((sorted(match_ids), sorted(rated_ids)))

    matches = _started(90)
    Match.objects.filter(pk__in=[m.pk for m in matches[:2]]).update(rated=True)
    match_finished.connect(listen, dispatch_uid="test-bot-batches")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert bot_play.play_bot_turns(_turns(matches)) == []
    finally:
        match_finished.disconnect(dispatch_uid="test-bot-batches")
    assert heard == [(sorted(m.pk for m in matches), sorted(m.pk for m in matches[:2]))]
