"""The compact action log (one MatchLog row per match, read back by
selectors.match_decisions): one action per match and ply whoever retries, a table of
bots' decisions kept as indices, labels described when read, redaction in the API log,
and the migrations that moved the old rows."""

import pytest
from django.db import IntegrityError, transaction

from games import selectors, services
from games.engines.registry import get_engine
from games.match_log import is_full
from games.models import Match, MatchLog, MatchStatus
from games.services import match_writes
from games.services.runner import Runner
from tests.games.factories import HumanPlayerFactory, MatchFactory, logged
from tests.migrations import back_to, migrate_to

pytestmark = pytest.mark.django_db


def _bot_batch(match_id: int, decisions: int) -> Runner:
    """A worker's batch computed in memory, not written (a worker about to commit)."""
    runner = Runner.load(Match.objects.get(pk=match_id))
    runner.settle(play_bots=True, budget_s=60.0, max_decisions=decisions)
    return runner


def _commit(runner: Runner, ply: int) -> bool:
    with transaction.atomic():
        return runner.persist(expected_ply=ply)


def test_a_bot_batch_is_one_log_row_of_indices_read_back_as_decisions():
    match = MatchFactory.create(game="silkroad", seats=4, seed=5)
    start = Match.objects.get(pk=match.pk).ply
    runner = _bot_batch(match.pk, 40)
    assert _commit(runner, start)
    match.refresh_from_db()
    log = MatchLog.objects.get(match=match)
    assert len(log.entries) == match.ply >= start + 40
    # The batch's entries are compact: an index, or [index, ms, at] where the clock was read.
    batch = log.entries[start:]
    assert all(type(e) is int or (type(e) is list and len(e) == 3) for e in batch)
    assert type(batch[-1]) is list  # the batch ends with a time
    rows = logged(match)
    assert [a.ply for a in rows] == list(range(match.ply))
    assert {a.source for a in rows[start:]} <= {"bot", "forced"}
    assert all(a.created_at is not None for a in rows)
    # Each decision is the indexed one among its state's legal actions, by the seat to act.
    engine = get_engine("silkroad")
    state = engine.new_game(players=4, seed=match.seed, options=match.options)
    for a, e in zip(rows, log.entries, strict=True):
        legal = engine.legal_actions(state)
        if not is_full(e):
            index = e if type(e) is int else e[0]
            assert (a.action, a.seat) == (legal[index], engine.to_act(state))
            assert a.source == ("forced" if len(legal) == 1 else "bot")
        state = engine.apply(state, a.action)  # the engine's own check of every action
    assert engine.to_json(state) == match.state


def test_a_retried_batch_logs_each_ply_once_and_recomputes_the_same_decisions():
    match = MatchFactory.create(game="greatwall", seats=2, seed=8)
    ply = Match.objects.get(pk=match.pk).ply
    dying = _bot_batch(match.pk, 30)  # this worker thinks, then dies before its commit
    retry = _bot_batch(match.pk, 30)  # the redelivered task starts from the same ply

    def indices(runner):
        return [e if type(e) is int else e[0] for e in runner.new_actions]

    assert indices(retry) == indices(dying)
    assert _commit(retry, ply)
    logged = MatchLog.objects.get(match=match).entries
    # the first copy wakes up: the match moved on, it writes nothing
    assert not _commit(dying, ply)
    assert MatchLog.objects.get(match=match).entries == logged
    # and the log itself refuses a ply twice, even without the match row's check
    stale = _bot_batch(match.pk, 5)
    with pytest.raises(IntegrityError), transaction.atomic():
        # a batch that starts three plies before the log's end
        match_writes.append_actions(match.pk, stale.first_new_ply - 3, stale.new_actions)
    assert MatchLog.objects.get(match=match).entries == logged
    with pytest.raises(IntegrityError), transaction.atomic():
        match_writes.append_actions(match.pk, 0, stale.new_actions[:1])  # ply 0 a second time
    assert MatchLog.objects.get(match=match).entries == logged
    # a re-run of the task for the old ply does nothing either
    assert services.play_bot_decisions(match_id=match.pk, ply=ply) is None
    assert MatchLog.objects.get(match=match).entries == logged


def test_bot_only_batches_store_no_labels_and_the_log_describes_them_when_read():
    match = MatchFactory.create(game="yspahan", seats=2, seed=3)
    ply = Match.objects.get(pk=match.pk).ply
    assert _commit(_bot_batch(match.pk, 20), ply)
    match.refresh_from_db()
    entries = MatchLog.objects.get(match=match).entries
    assert not any(is_full(e) for e in entries[ply:])  # no labels: indices
    engine = get_engine("yspahan")
    state = engine.new_game(players=2, seed=match.seed, options=match.options)
    expected = []
    for a in logged(match):
        expected.append(engine.describe(state, a.action)[:200])
        state = engine.apply(state, a.action)
    assert [row["label"] for row in selectors.match_log(match, None)] == expected
    assert all(expected)


def _finish(match):
    while True:
        match.refresh_from_db()
        if services.play_bot_decisions(match_id=match.pk, ply=match.ply) is None:
            match.refresh_from_db()
            return match


def test_the_replay_names_a_bot_decision_it_shows():
    match = _finish(MatchFactory.create(game="silkroad", seats=2, seed=4))
    assert match.status == MatchStatus.FINISHED
    engine = get_engine("silkroad")
    actions = logged(match)
    ply = next(a.ply for a in actions if a.source == "bot") + 1
    state = engine.new_game(players=2, seed=match.seed, options=match.options)
    for a in actions[: ply - 1]:
        state = engine.apply(state, a.action)
    step = selectors.replay_step(match, ply)
    assert step["current"].label == engine.describe(state, actions[ply - 1].action)


def test_human_decisions_keep_their_stored_label():
    humans = [HumanPlayerFactory(), HumanPlayerFactory()]
    match = services.create_match(game="silkroad", players=humans)
    engine = get_engine("silkroad")
    state = engine.from_json(match.state)
    action = engine.legal_actions(state)[0]
    user = humans[match.to_act].user
    record = services.submit_action(match_id=match.pk, user=user, ply=match.ply, action=action)
    assert record.label == engine.describe(state, action)[:200] and record.label
    assert MatchLog.objects.get(match=match).entries[record.ply][2] == record.label


def test_the_api_log_hides_bots_secret_chips_from_spectators(api_client):
    match = MatchFactory.create(game="greatwall", seats=4, seed=21)
    ply = Match.objects.get(pk=match.pk).ply
    assert _commit(_bot_batch(match.pk, 80), ply)
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING
    engine = get_engine("greatwall")
    raw = logged(match)
    secret = [a for a in raw if engine.redact_action(a.action, a.seat, None) != a.action]
    assert secret, "the batch laid no chip face down: pick another seed"
    shown = api_client.get(f"/api/matches/{match.pk}/log/").json()
    assert [row["ply"] for row in shown] == [a.ply for a in raw]
    for row, a in zip(shown, raw, strict=True):
        hidden = engine.redact_action(a.action, a.seat, None)
        assert row["action"] == hidden
        # A chip laid face down is described as such ("lay a chip"), never by its face.
        assert row["label"]
        if hidden != a.action:
            assert row["label"] == "lay a chip" or "(a chip)" in row["label"], row["label"]
    for a in secret:
        assert shown[a.ply]["action"]["chip"] != a.action["chip"]


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_existing_rows_into_the_log_and_back():
    from datetime import UTC, datetime

    old, latest = back_to("games", "0005_invitations")
    OldMatch, OldAction = old.get_model("games", "Match"), old.get_model("games", "MatchAction")
    at = datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=UTC)
    m = OldMatch.objects.create(game="silkroad", seed=1, ply=3, status="running")
    empty = OldMatch.objects.create(game="silkroad", seed=2)
    rows = [(0, 0, {"type": "a"}, "first", "player", 5), (1, 1, {"type": "b", "n": [1, 2]}, "", "bot", 0),
            (2, 0, {"type": "c"}, "third", "timeout", 70)]  # fmt: skip
    for ply, seat, action, label, source, used in rows:
        OldAction.objects.create(match=m, ply=ply, seat=seat, action=action, label=label,
                                 source=source, time_used_ms=used)  # fmt: skip
    OldAction.objects.filter(match=m).update(created_at=at)  # auto_now_add ignores a value
    migrate_to(latest)
    moved = logged(m.pk)
    assert [(a.ply, a.seat, a.action, a.label, a.source, a.time_used_ms) for a in moved] == rows
    assert all(a.created_at == at for a in moved)
    assert MatchLog.objects.get(match_id=m.pk).plies == len(rows)  # counted by 0011
    assert not MatchLog.objects.filter(match_id=empty.pk).exists()
    back = migrate_to([("games", "0005_invitations")]).get_model("games", "MatchAction")
    assert [
        (a.ply, a.seat, a.action, a.label, a.source, a.time_used_ms, a.created_at)
        for a in back.objects.filter(match_id=m.pk).order_by("ply")
    ] == [(*r, at) for r in rows]
    migrate_to(latest)


def test_the_log_is_json_text_with_its_length_and_appends_keep_both():
    """Batches appended one after the other (the batch statement on PostgreSQL, plain
    appends elsewhere) and a human move after them: one entry a ply, `plies` their number,
    and on PostgreSQL a json (not jsonb) column."""
    from django.db import connection

    match = MatchFactory.create(game="yspahan", seats=2, seed=12)
    for size in (7, 1, 30):
        ply = Match.objects.get(pk=match.pk).ply
        assert _commit(_bot_batch(match.pk, size), ply)
        match.refresh_from_db()
        log = MatchLog.objects.get(match=match)
        assert log.plies == len(log.entries) == match.ply
    assert [a.ply for a in logged(match)] == list(range(match.ply))
    # the engine replays the log to the stored state
    engine = get_engine("yspahan")
    state = engine.new_game(players=2, seed=match.seed, options=match.options)
    for a in logged(match):
        state = engine.apply(state, a.action)
    assert engine.to_json(state) == match.state
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_typeof(entries)::text FROM games_matchlog WHERE match_id = %s",
                           [match.pk])  # fmt: skip
            assert cursor.fetchone()[0] == "json"
    # a stale append (the log no longer ends there) changes neither the text nor the length
    with pytest.raises(IntegrityError), transaction.atomic():
        match_writes.append_actions(match.pk, log.plies - 1, [log.entries[-1]])
    again = MatchLog.objects.get(match=match)
    assert (again.plies, again.entries) == (log.plies, log.entries)


def test_a_bot_batch_writes_every_column_play_changed():
    """The batch writes only match_writes.PLAY_FIELDS of the row: after it the stored row
    equals the runner's in memory, column for column, for a batch that ends the match
    and one that does not."""
    for game, seats, seed, decisions in [("silkroad", 4, 3, 25), ("greatwall", 2, 6, 100_000)]:
        match = MatchFactory.create(game=game, seats=seats, seed=seed)
        ply = Match.objects.get(pk=match.pk).ply
        runner = _bot_batch(match.pk, decisions)
        assert _commit(runner, ply)
        stored = Match.objects.get(pk=match.pk)
        for f in Match._meta.concrete_fields:
            assert getattr(stored, f.attname) == getattr(runner.match, f.attname), f.name
        assert stored.status == (MatchStatus.FINISHED if decisions > 1000 else MatchStatus.RUNNING)
        changed = {f.name for f in Match._meta.concrete_fields
                   if getattr(stored, f.attname) != getattr(match, f.attname)}  # fmt: skip
        assert changed <= set(match_writes.PLAY_FIELDS), changed - set(match_writes.PLAY_FIELDS)


def test_json_values_with_keys_other_than_strings_are_written_with_them_as_strings():
    """Logs are encoded without orjson's slower option for non-string keys unless a value
    has such keys; then they are written as JSON writes them (as strings)."""
    assert (
        match_writes._json_bytes([0, {"type": "row"}, "", "bot"]) == b'[0,{"type":"row"},"","bot"]'
    )
    assert match_writes._json_bytes({"scores": {1: 5, 2: 7}}) == b'{"scores":{"1":5,"2":7}}'
    assert match_writes.log_json([[1, {3: "x"}]]) == '[[1,{"3":"x"}]]'


def test_a_page_reads_and_replays_the_log_once(client):
    """The match page asks for the decisions twice (the last move, the log) and the
    replay twice (the step, the log's lines): one read of the log row each, and a move
    made since is read again (the decisions are kept for the match's ply)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    match = _finish(MatchFactory.create(game="yspahan", seats=2, seed=31))
    for url in (f"/matches/{match.pk}/", f"/matches/{match.pk}/replay/?ply=7"):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        reads = [q for q in queries.captured_queries if "games_matchlog" in q["sql"]]
        assert len(reads) == 1, url
    running = MatchFactory.create(game="silkroad", seats=2, seed=32)
    running = Match.objects.get(pk=running.pk)
    first = selectors.match_decisions(running)
    assert selectors.match_decisions(running) is first
    assert _commit(_bot_batch(running.pk, 10), running.ply)
    running.refresh_from_db()
    assert len(selectors.match_decisions(running)) == running.ply == len(first) + 10
