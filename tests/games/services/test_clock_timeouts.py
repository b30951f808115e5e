"""Clocks that mean something (#28): an empty clock loses on time, three time-outs in a
row forfeit a seat, and either end goes out as any match end does."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.engines.registry import get_engine
from games.models import Match, MatchStatus, Seat
from games.signals import match_finished
from games.time_limits import TIMEOUTS_TO_FORFEIT
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, MatchFactory, logged

pytestmark = pytest.mark.django_db

CLOCK = {"initial_s": 60, "increment_s": 2}


def _legal(match):
    engine = get_engine(match.game)
    return engine.legal_actions(engine.from_json(match.state))


def _to(match, player) -> bool:
    """Play the bots until `player` is to act (True) or the match is over (False)."""
    while True:
        match.refresh_from_db()
        if match.status != MatchStatus.RUNNING:
            return False
        if match.seats.get(index=match.to_act).player == player:
            return True
        services.play_bot_decisions(match_id=match.pk, ply=match.ply)


def _run_out(match) -> bool:
    """The seat to act lets its time run out: the deadline passes and the task runs."""
    past = timezone.now() - timedelta(seconds=1)
    # The turn began a whole clock ago, so the time-out move charges all of it.
    Match.objects.filter(pk=match.pk).update(
        deadline=past, turn_started_at=past - timedelta(seconds=match.initial_s or 0)
    )
    done = services.time_out(match_id=match.pk, ply=match.ply)
    match.refresh_from_db()
    return done


def _seat(match, player) -> Seat:
    return match.seats.get(player=player)


def test_an_empty_clock_in_a_two_seat_match_ends_it_and_ranks_the_player_last():
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = MatchFactory.create(players=[alice, bob], time_control=CLOCK)
    loser = match.seats.get(index=match.to_act).player
    winner = bob if loser == alice else alice
    assert _run_out(match)
    assert match.status == MatchStatus.FINISHED
    assert match.finish_reason == "time"
    assert match.to_act is None and match.deadline is None
    lost, won = _seat(match, loser), _seat(match, winner)
    assert (lost.rank, won.rank) == (2, 1)
    assert lost.forfeited and lost.forfeit_reason == "time"
    # The increment does not put time back on a lost clock.
    assert lost.clock_ms == 0
    assert not won.forfeited and won.forfeit_reason == ""
    assert match.outcome["ranks"][lost.index] == 2 and match.outcome["forfeited"][lost.index]
    assert services.time_out(match_id=match.pk, ply=match.ply) is False  # nothing more to do


def test_a_clock_found_empty_when_the_turn_comes_loses_on_time_too():
    # No increment: a decision made on the last millisecond leaves the clock at zero, and
    # the next turn of that seat is lost without waiting for a deadline.
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = MatchFactory.create(players=[alice, bob], time_control={"initial_s": 60})
    mover = match.seats.get(index=match.to_act)
    other = match.seats.exclude(pk=mover.pk).get()
    Seat.objects.filter(pk=other.pk).update(clock_ms=0)
    while True:  # the mover's turn may take several decisions
        services.submit_action(
            match_id=match.pk, user=mover.player.user, ply=match.ply, action=_legal(match)[0]
        )
        match.refresh_from_db()
        if match.to_act != mover.index:
            break
    assert match.status == MatchStatus.FINISHED and match.finish_reason == "time"
    other.refresh_from_db()
    assert other.forfeit_reason == "time" and other.rank == 2
    assert logged(match, seat=other.index)[-1].source == "timeout"


def test_an_empty_clock_at_a_four_seat_table_forfeits_the_seat_and_the_others_play_on():
    alice = HumanPlayerFactory()
    bots = [EngineBotFactory(bot_name="random") for _ in range(3)]
    match = MatchFactory.create(players=[bots[0], alice, bots[1], bots[2]], seed=4,
                                time_control=CLOCK)  # fmt: skip
    assert _to(match, alice)
    assert _run_out(match)
    assert match.status == MatchStatus.RUNNING
    assert match.seats.get(index=match.to_act).player != alice
    seat = _seat(match, alice)
    assert seat.forfeited and seat.forfeit_reason == "time" and seat.clock_ms == 0
    plies = match.ply
    # The game goes on to its end, her decisions taken by the bot.
    assert not _to(match, alice)
    assert match.status == MatchStatus.FINISHED and match.finish_reason == "played_out"
    assert match.ply > plies + 10
    seat.refresh_from_db()
    assert seat.rank == 4 and seat.clock_ms == 0  # the bot's moves earn no increment
    assert sorted(s.rank for s in match.seats.exclude(pk=seat.pk)) == [1, 2, 3]
    assert {d.source for d in logged(match, seat=seat.index)[1:] if d.ply >= plies} <= {
        "bot", "forced"
    }  # fmt: skip


def _auto_match():
    alice = HumanPlayerFactory()
    bot = EngineBotFactory(bot_name="random")
    match = MatchFactory.create(players=[alice, bot], seed=2, time_control={"per_move_s": 30},
                                timeout_policy="auto")  # fmt: skip
    return match, alice


def test_the_auto_policy_forfeits_a_seat_after_three_time_outs_in_a_row():
    match, alice = _auto_match()
    for n in range(1, TIMEOUTS_TO_FORFEIT):
        assert _to(match, alice)
        assert _run_out(match)
        seat = _seat(match, alice)
        assert match.status == MatchStatus.RUNNING, n
        assert (seat.timeouts_in_row, seat.timeouts, seat.forfeited) == (n, n, False)
    assert _to(match, alice)
    assert _run_out(match)
    seat = _seat(match, alice)
    assert seat.forfeited and seat.forfeit_reason == "timeouts"
    assert seat.timeouts_in_row == TIMEOUTS_TO_FORFEIT
    # Two seats: nobody is left to play against, so the match ends there.
    assert match.status == MatchStatus.FINISHED and match.finish_reason == "forfeit"
    assert seat.rank == 2 and match.seats.exclude(pk=seat.pk).get().rank == 1


def test_a_decision_of_her_own_starts_the_count_again():
    match, alice = _auto_match()
    for _ in range(TIMEOUTS_TO_FORFEIT - 1):
        assert _to(match, alice)
        assert _run_out(match)
    assert _to(match, alice)
    services.submit_action(match_id=match.pk, user=alice.user, ply=match.ply,
                           action=_legal(match)[0])  # fmt: skip
    assert _seat(match, alice).timeouts_in_row == 0
    assert _to(match, alice)
    assert _run_out(match)
    seat = _seat(match, alice)
    assert (seat.timeouts_in_row, seat.timeouts, seat.forfeited) == (1, TIMEOUTS_TO_FORFEIT, False)
    assert match.status == MatchStatus.RUNNING


def test_the_forfeit_policy_names_its_reason():
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = MatchFactory.create(players=[alice, bob], time_control={"per_move_s": 30},
                                timeout_policy="forfeit")  # fmt: skip
    seat = match.to_act
    assert _run_out(match)
    s = match.seats.get(index=seat)
    assert s.forfeited and s.forfeit_reason == "timeout" and s.rank == 2
    assert match.status == MatchStatus.FINISHED and match.finish_reason == "forfeit"


def test_a_loss_on_time_is_announced_like_any_match_end(django_capture_on_commit_callbacks):
    from ratings import services as ratings_services
    from ratings.models import RatingChange

    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(game="silkroad", players=[alice, bob], time_control=CLOCK,
                                  rated=True, consented=True)  # fmt: skip
    loser = match.seats.get(index=match.to_act).player
    heard = []

    def listener(sender, match_ids, rated_ids, **kwargs):
        heard.append((list(match_ids), list(rated_ids)))

    match_finished.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert _run_out(match)
    finally:
        match_finished.disconnect(listener)
    assert heard == [([match.pk], [match.pk])]
    # What the ratings task does with it: the loser on time loses points.
    ratings_services.on_matches_finished(match_ids=[match.pk])
    changes = RatingChange.objects.filter(match=match, player=loser)
    assert changes and all(c.after < c.before for c in changes)


def test_a_bot_batch_that_finds_her_clock_empty_ends_the_match_and_writes_why():
    # The bots' own write (one statement a batch on PostgreSQL) carries the new columns.
    alice = HumanPlayerFactory()
    bot = EngineBotFactory(bot_name="random")
    match = MatchFactory.create(players=[alice, bot], seed=7, time_control={"initial_s": 60})
    while match.seats.get(index=match.to_act).player == alice:  # her move first: the bot's turn
        services.submit_action(match_id=match.pk, user=alice.user, ply=match.ply,
                               action=_legal(match)[0])  # fmt: skip
        match.refresh_from_db()
    Seat.objects.filter(match=match, player=alice).update(clock_ms=0)
    services.play_bot_decisions(match_id=match.pk, ply=match.ply)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.finish_reason == "time"
    seat = _seat(match, alice)
    assert (seat.forfeited, seat.forfeit_reason, seat.timeouts_in_row, seat.rank) == (
        True, "time", 1, 2
    )  # fmt: skip
