"""start_round makes a round's matches in one batch (games.services.match_batches): the same
matches, seats, states and scheduled tasks as create_match one table at a time."""

import pytest
from django.core.exceptions import ValidationError

from games import services as game_services
from games.models import Match, Player
from tests.games.factories import ExternalBotFactory, HumanPlayerFactory
from tests.games.services.test_match_batches import match_row, published_tasks, scheduled
from tests.tournaments.factories import tournament_with_bots
from tournaments import services
from tournaments.models import Round, RoundStatus, Table, TableStatus

pytestmark = pytest.mark.django_db


def _paired(t) -> Round:
    services.start_tournament(tournament=t)  # auto_advance off: paired, not started
    return Round.objects.get(tournament=t, number=1)


def _one_by_one(t, table: Table, seed: int) -> Match:
    """What start_round made one table at a time, for this seed."""
    players = [s.entry.player for s in table.seats.order_by("index")]
    return game_services.create_match(
        game=t.game, players=players, options=t.options, variant=t.variant, seed=seed,
        time_control=t.time_control(), timeout_policy=t.timeout_policy, rated=False,
        created_by=t.organiser, consented=True,
    )  # fmt: skip


def test_a_round_starts_the_matches_create_match_would_start(django_capture_on_commit_callbacks):
    organiser = HumanPlayerFactory()
    t = tournament_with_bots(n=10, config={"table_size": 4, "rounds": 3}, auto_advance=False,
                             organiser=organiser.user, rated=False,
                             time_control={"per_move_s": 120}, timeout_policy="forfeit")  # fmt: skip
    for _ in range(2):  # humans too: their tables get deadlines
        services.add_entry(tournament=t, player=HumanPlayerFactory())
    rnd = _paired(t)
    with published_tasks() as sent, django_capture_on_commit_callbacks(execute=True):
        services.start_round(round_=rnd)
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.RUNNING
    tables = list(rnd.tables.select_related("match").order_by("number"))
    assert len(tables) == 3
    assert all(table.status == TableStatus.PLAYING and table.match for table in tables)
    matches = [table.match for table in tables]
    assert len({m.seed for m in matches}) == 3  # a server seed each
    for table, match in zip(tables, matches, strict=True):
        entrants = [s.entry.player_id for s in table.seats.order_by("index")]
        assert [s.player_id for s in match.seats.order_by("index")] == entrants
    with published_tasks() as sent_single, django_capture_on_commit_callbacks(execute=True):
        single = [_one_by_one(t, table, m.seed) for table, m in zip(tables, matches, strict=True)]
    for made, reference in zip(matches, single, strict=True):
        assert match_row(made.pk) == match_row(reference.pk)

    assert scheduled(sent, matches) == scheduled(sent_single, single)
    assert len(scheduled(sent, matches)) == 3


def test_a_rated_round_rates_the_tables_create_match_would_rate():
    human = HumanPlayerFactory()
    own_bot = ExternalBotFactory(owner=human.user)
    shared = tournament_with_bots(n=2, config={"table_size": 4, "rounds": 1},
                                  auto_advance=False, rated=True)  # fmt: skip
    for p in (human, own_bot):
        services.add_entry(tournament=shared, player=p)
    bots_only = tournament_with_bots(n=4, config={"table_size": 4, "rounds": 1},
                                     auto_advance=False, rated=True)  # fmt: skip
    rated = []
    for t in (shared, bots_only):
        rnd = _paired(t)
        services.start_round(round_=rnd)
        (table,) = rnd.tables.select_related("match")
        players = [s.entry.player for s in table.seats.order_by("index")]
        reference = game_services.create_match(
            game=t.game, players=players, options=t.options, rated=True, consented=True
        )
        assert table.match.rated is reference.rated
        rated.append(table.match.rated)
    # Both seats of one person at a table: played, not rated.
    assert rated == [False, True]


def test_an_invalid_entrant_stops_the_round_with_create_match_s_error():
    t = tournament_with_bots(n=8, config={"table_size": 4, "rounds": 2}, auto_advance=False)
    rnd = _paired(t)
    last_table = rnd.tables.order_by("number").last()
    seat = last_table.seats.order_by("index").first()
    Player.objects.filter(pk=seat.entry.player_id).update(is_active=False)
    players = [s.entry.player for s in last_table.seats.order_by("index")]
    with pytest.raises(ValidationError) as single:
        game_services.create_match(game=t.game, players=players, consented=True)
    before = Match.objects.count()
    with pytest.raises(ValidationError) as batch:
        services.start_round(round_=rnd)
    assert batch.value.message_dict == single.value.message_dict
    assert "is not active" in batch.value.message_dict["seats"][0]
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.PAIRED and Match.objects.count() == before
    assert not Table.objects.filter(round=rnd).exclude(status=TableStatus.PENDING).exists()


def test_an_over_the_board_round_starts_its_tables_without_matches():
    t = tournament_with_bots(n=8, config={"table_size": 4, "rounds": 1}, auto_advance=False,
                             over_the_board=True, rated=False)  # fmt: skip
    rnd = _paired(t)
    before = Match.objects.count()
    services.start_round(round_=rnd)
    tables = Table.objects.filter(round=rnd)
    assert tables.count() == 2
    assert all(tb.status == TableStatus.PLAYING and tb.match_id is None for tb in tables)
    assert Match.objects.count() == before
    with pytest.raises(ValidationError):
        services.start_round(round_=rnd)


def test_tables_whose_matches_end_together_take_their_results_in_one_task(
    django_capture_on_commit_callbacks,
):
    from games.services import bot_play
    from tournaments import tasks

    t = tournament_with_bots(n=12, config={"table_size": 4, "rounds": 2}, auto_advance=False)
    rnd = _paired(t)
    services.start_round(round_=rnd)
    matches = [table.match for table in rnd.tables.select_related("match").order_by("number")]
    turns = [(m.pk, Match.objects.get(pk=m.pk).ply) for m in matches]
    with published_tasks() as sent, django_capture_on_commit_callbacks(execute=True):
        assert bot_play.play_bot_turns(turns) == []  # the three tables end in one round
    results = [args for name, args, _ in sent if name == "tournaments.tasks.matches_finished"]
    assert results == [(sorted(m.pk for m in matches),)]
    tasks.matches_finished(*results[0])  # what the worker runs
    tables = list(rnd.tables.order_by("number"))
    assert all(table.status == TableStatus.FINISHED for table in tables)
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.FINISHED
