"""The bot runner's load: the matches still running at the asked ply, their seats in
order with their players, in one round trip on PostgreSQL; and plans that stay cheap
whatever the parameters (they are prepared once, with a generic plan)."""

import pytest
from django.db import connection

from games import services
from games.models import Match, MatchStatus, Seat
from games.services import prepared, row_loads
from games.services.runner import Runner
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, MatchFactory

pytestmark = pytest.mark.django_db


def _started(players, seed):
    match = MatchFactory.create(game="silkroad", players=players, seed=seed, start=False)
    services.start_match(match_id=match.pk)
    match.refresh_from_db()
    return match


def test_load_many_keeps_only_running_matches_at_their_ply_with_seats_and_players():
    random_bot, greedy = EngineBotFactory(bot_name="random"), EngineBotFactory(bot_name="greedy")
    human = HumanPlayerFactory()
    a = _started([greedy, random_bot, random_bot], seed=1)
    b = _started([human, random_bot], seed=2)
    moved = _started([random_bot, greedy], seed=3)
    done = _started([random_bot, random_bot], seed=4)
    Match.objects.filter(pk=done.pk).update(status=MatchStatus.FINISHED)
    turns = [(b.pk, b.ply), (moved.pk, moved.ply + 1), (a.pk, a.ply), (done.pk, done.ply),
             (10**9, 0)]  # fmt: skip

    runners = Runner.load_many(turns)

    assert [r.match.pk for r in runners] == [b.pk, a.pk]  # the order asked for
    for runner, expected in zip(runners, (b, a), strict=True):
        for f in Match._meta.concrete_fields:  # as the ORM loads it, datetimes and JSON too
            assert getattr(runner.match, f.attname) == getattr(expected, f.attname), f.name
        assert runner.match.started_at.utcoffset().total_seconds() == 0
        assert runner.state is not None
        want = list(Seat.objects.filter(match=expected).order_by("index").values_list("player_id"))
        assert [(s.player_id,) for s in runner.seats] == want
        assert [s.index for s in runner.seats] == list(range(len(want)))
        assert all(s.player.pk == s.player_id and s.match is runner.match for s in runner.seats)
    assert runners[0].seats[0].player.kind == human.kind
    assert runners[1].seats[0].player.bot_name == "greedy"
    loaded_bot = runners[1].seats[1].player
    for f in type(loaded_bot)._meta.concrete_fields:
        assert getattr(loaded_bot, f.attname) == getattr(random_bot, f.attname), f.name


def test_loaded_instances_are_as_the_orm_leaves_them_and_save_as_updates():
    match = _started([EngineBotFactory(bot_name="random")] * 2, seed=5)
    matches, seats, players = row_loads.running_tables([match.pk], str(MatchStatus.RUNNING))
    loaded = matches[0]
    assert not loaded._state.adding and loaded._state.db == "default"
    assert loaded.variant_id == match.variant_id and loaded.created_by_id == match.created_by_id
    loaded.abort_reason = "checked"
    loaded.save(update_fields=["abort_reason"])  # an UPDATE of the row, not an INSERT
    assert Match.objects.get(pk=match.pk).abort_reason == "checked"
    assert Match.objects.count() == 1
    assert seats[0].match_id == match.pk and not seats[0]._state.adding


def test_instances_go_through_the_model_init_when_something_listens_for_it():
    from django.db.models.signals import post_init

    made = []

    def listen(sender, instance, **kwargs):
        made.append(instance)

    match = _started([EngineBotFactory(bot_name="random")] * 2, seed=6)
    post_init.connect(listen, sender=Seat, dispatch_uid="test-row-loads")
    try:
        _matches, seats, _players = row_loads.running_tables([match.pk], str(MatchStatus.RUNNING))
    finally:
        post_init.disconnect(sender=Seat, dispatch_uid="test-row-loads")
    assert made == seats and len(seats) == 2


def test_what_runs_meanwhile_runs_once_with_the_load_and_without_ids_too():
    match = _started([EngineBotFactory(bot_name="random")] * 2, seed=7)
    calls = []
    matches, seats, _players = row_loads.running_tables(
        [match.pk], str(MatchStatus.RUNNING), lambda: calls.append(1)
    )
    assert calls == [1] and [m.pk for m in matches] == [match.pk] and len(seats) == 2
    assert row_loads.running_tables([], str(MatchStatus.RUNNING), lambda: calls.append(0)) == (
        [], [], [])  # fmt: skip
    assert calls == [1, 0]


def test_running_tables_of_no_match_is_empty():
    assert row_loads.running_tables([], str(MatchStatus.RUNNING)) == ([], [], [])


@pytest.mark.postgres_redis
def test_the_load_statements_generic_plans_use_the_match_keys_only():
    """A generic plan of `status = $2` scanned the status index (every running or finished
    match), and a players-by-seats join walked every seat the bot ever had: thousands of
    rows a load, millions on a long-lived site."""
    bot = EngineBotFactory(bot_name="random")
    match = _started([bot, bot], seed=5)
    prepared.prepare_on(connection)
    with connection.cursor() as cursor:
        for i, sql in enumerate(row_loads._table_statements()):
            cursor.execute(f"PREPARE load_plan_{i} (bigint[]) AS {sql}")
            cursor.execute(f"EXPLAIN EXECUTE load_plan_{i} (ARRAY[{match.pk}]::bigint[])")
            plan = "\n".join(row[0] for row in cursor.fetchall())
            cursor.execute(f"DEALLOCATE load_plan_{i}")
            assert "$1" in plan or "ANY ($" in plan, plan  # generic: no value of ours in it
            assert "status" not in plan, plan
            assert "player_id_" not in plan, plan  # the seats' index by player


@pytest.mark.postgres_redis
def test_generic_plans_are_asked_for_again_after_a_rolled_back_transaction():
    """Asked for inside a transaction that rolls back, the session's setting goes with
    it; the next call asks again (before, a flag kept it from ever being asked again)."""
    from django.db import transaction

    def mode():
        with connection.cursor() as cursor:
            cursor.execute("SHOW plan_cache_mode")
            return cursor.fetchone()[0]

    prepared.prepare_on(connection)
    with connection.cursor() as cursor:  # as a fresh connection
        cursor.execute("RESET plan_cache_mode")
    connection.connection._generic_plans = False
    with pytest.raises(RuntimeError), transaction.atomic():
        prepared.prepare_on(connection)
        assert mode() == "force_generic_plan"
        raise RuntimeError("rolled back")
    assert mode() == "auto"  # gone with the savepoint
    prepared.prepare_on(connection)
    assert mode() == "force_generic_plan"
