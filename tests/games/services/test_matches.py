"""The match service on the real engines, with tasks run in-process by the test."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import ValidationError
from django.utils import timezone

from games import services
from games.engines.registry import ENGINES, get_engine
from games.models import Match, MatchStatus
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, MatchFactory, logged
from tests.threads import run_together

pytestmark = pytest.mark.django_db


def _legal(match):
    engine = get_engine(match.game)
    return engine.legal_actions(engine.from_json(match.state))


def _human_to_act(match, humans):
    match.refresh_from_db()
    return (
        match.status == MatchStatus.RUNNING and match.seats.get(index=match.to_act).player in humans
    )


def _run_bots(match):
    while True:
        match.refresh_from_db()
        if services.play_bot_decisions(match_id=match.pk, ply=match.ply) is None:
            match.refresh_from_db()
            return


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_bot_match_runs_to_the_end_and_replays(game):
    engine = get_engine(game)
    match = MatchFactory.create(game=game, seats=engine.max_players, seed=11)
    _run_bots(match)
    assert match.status == MatchStatus.FINISHED
    plies = [a.ply for a in logged(match)]
    assert plies == list(range(match.ply))
    # The stored log replays to the stored outcome.
    state = engine.new_game(players=engine.max_players, seed=match.seed, options=match.options)
    for a in logged(match):
        state = engine.apply(state, a.action)
    assert engine.outcome(state)["ranks"] == match.outcome["engine_ranks"]
    assert sorted(s.rank for s in match.seats.all()) == sorted(match.outcome["ranks"])


def test_create_match_validates_input():
    bots = [EngineBotFactory() for _ in range(6)]
    with pytest.raises(ValidationError, match="players"):
        services.create_match(game="silkroad", players=bots[:1])
    with pytest.raises(ValidationError, match="players"):
        services.create_match(game="silkroad", players=bots)
    with pytest.raises(ValidationError, match="Unknown game"):
        services.create_match(game="chess", players=bots[:2])
    with pytest.raises(ValidationError, match="options"):
        services.create_match(game="silkroad", players=bots[:2], options={"no_such_option": 1})
    with pytest.raises(ValidationError, match="time_control"):
        services.create_match(game="silkroad", players=bots[:2], time_control={"per_move_s": 0})
    assert Match.objects.count() == 0


def _human_match(**kwargs):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = MatchFactory.create(players=[alice, bob], seed=5, **kwargs)
    return match, alice, bob


def test_submit_checks_ply_seat_and_legality_and_changes_nothing_on_error():
    match, alice, bob = _human_match()
    to_act = match.seats.get(index=match.to_act).player
    other = bob if to_act == alice else alice
    action = _legal(match)[0]
    before = (match.ply, match.state)

    with pytest.raises(services.NotYourSeat):
        services.submit_action(match_id=match.pk, user=other.user, ply=match.ply, action=action)
    with pytest.raises(services.StalePly):
        services.submit_action(
            match_id=match.pk, user=to_act.user, ply=match.ply + 3, action=action
        )
    with pytest.raises(services.IllegalMove):
        services.submit_action(
            match_id=match.pk, user=to_act.user, ply=match.ply, action={"type": "fly"}
        )
    with pytest.raises(services.IllegalMove):
        services.submit_action(match_id=match.pk, user=to_act.user, ply=match.ply, action="play")
    match.refresh_from_db()
    assert (match.ply, match.state) == before
    assert all(d.source == "forced" for d in logged(match))

    record = services.submit_action(
        match_id=match.pk, user=to_act.user, ply=match.ply, action=action
    )
    again = services.submit_action(
        match_id=match.pk, user=to_act.user, ply=before[0], action=action
    )
    assert again == record
    assert len(logged(match, ply=record.ply)) == 1


def test_humans_play_a_whole_match_through_the_service():
    match, alice, bob = _human_match()
    humans = {alice, bob}
    while _human_to_act(match, humans):
        player = match.seats.get(index=match.to_act).player
        legal = _legal(match)
        services.submit_action(match_id=match.pk, user=player.user, ply=match.ply, action=legal[-1])
    assert match.status == MatchStatus.FINISHED
    assert sorted(match.outcome["ranks"]) == [1, 2]


def _expire(match):
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    match.refresh_from_db()


def test_timeout_auto_moves_for_the_seat_and_is_idempotent():
    match, alice, bob = _human_match(time_control={"per_move_s": 30}, timeout_policy="auto")
    assert match.deadline is not None
    ply, seat = match.ply, match.to_act
    assert services.time_out(match_id=match.pk, ply=ply) is False  # not yet due
    _expire(match)
    assert services.time_out(match_id=match.pk, ply=ply) is True
    assert services.time_out(match_id=match.pk, ply=ply) is False  # already applied
    first = logged(match, ply=ply)[0]
    assert (first.seat, first.source) == (seat, "timeout")
    s = match.seats.get(index=seat)
    assert s.timeouts == 1 and not s.forfeited


def test_forfeit_plays_the_seat_by_bot_and_ranks_it_last():
    match, alice, bob = _human_match(time_control={"per_move_s": 30}, timeout_policy="forfeit")
    loser = match.to_act
    _expire(match)
    services.time_out(match_id=match.pk, ply=match.ply)
    humans = {alice, bob}
    while _human_to_act(match, humans):
        player = match.seats.get(index=match.to_act).player
        assert match.to_act != loser, "a forfeited seat is never asked again"
        services.submit_action(
            match_id=match.pk, user=player.user, ply=match.ply, action=_legal(match)[0]
        )
    assert match.status == MatchStatus.FINISHED
    assert match.outcome["ranks"][loser] == 2
    assert match.outcome["forfeited"][loser] is True


def test_clock_runs_down_and_increment_is_added():
    match, alice, bob = _human_match(time_control={"initial_s": 60, "increment_s": 5})
    seat = match.seats.get(index=match.to_act)
    assert seat.clock_ms == 60_000
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(seconds=10))
    services.submit_action(
        match_id=match.pk, user=seat.player.user, ply=match.ply, action=_legal(match)[0]
    )
    seat.refresh_from_db()
    assert 54_000 <= seat.clock_ms <= 55_500  # 60 - 10 + 5


def test_abort_refused_to_outsiders_and_bare_staff_allowed_with_change_match():
    match, alice, bob = _human_match()
    outsider = HumanPlayerFactory().user
    with pytest.raises(services.NotYourSeat):
        services.abort_match(match_id=match.pk, user=outsider)
    outsider.is_staff = True  # staff status alone grants nothing (core.permissions)
    outsider.save()
    with pytest.raises(services.NotYourSeat):
        services.abort_match(match_id=match.pk, user=outsider)
    outsider.user_permissions.add(Permission.objects.get(codename="change_match"))
    outsider = type(outsider).objects.get(pk=outsider.pk)  # permissions are cached per object
    services.abort_match(match_id=match.pk, user=outsider)
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED
    with pytest.raises(services.MatchNotRunning):
        services.submit_action(match_id=match.pk, user=alice.user, ply=match.ply, action={})


def test_overdue_matches_finds_late_deadlines_and_stalled_bot_turns():
    match, *_ = _human_match(time_control={"per_move_s": 30})
    bots = MatchFactory.create(seats=2, seed=3)
    assert services.overdue_matches() == ([], [])
    _expire(match)
    Match.objects.filter(pk=bots.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    late, stalled = services.overdue_matches()
    assert late == [(match.pk, match.ply)]
    assert stalled == [(bots.pk, bots.ply)]


@pytest.mark.django_db(transaction=True)
def test_concurrent_submissions_for_one_ply_apply_exactly_once():
    match, alice, bob = _human_match()
    player = match.seats.get(index=match.to_act).player
    legal = _legal(match)

    def submit(action):
        try:
            services.submit_action(
                match_id=match.pk, user=player.user, ply=match.ply, action=action
            )
        except services.MatchError as exc:
            return exc.code
        return "ok"

    results = run_together(submit, [(legal[0],), (legal[-1],)])
    assert sorted(results) == ["ok", "stale_ply"]
    assert len(logged(match, ply=match.ply)) == 1
