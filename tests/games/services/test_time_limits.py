"""Matches stored before time controls were bounded: their deadlines are clamped to the
longest allowed, instead of overflowing a datetime in every task that touches them."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.engines.registry import get_engine
from games.models import Match, MatchStatus, Seat
from games.time_limits import MAX_DECISION_S
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db


def _absurd() -> int:
    # SQLite keeps any integer (10^14 s overflowed timedelta); PostgreSQL's integer column
    # stops at 2^31 - 1, which still put the deadline 68 years away.
    return 10**14 if connection.vendor == "sqlite" else 2**31 - 1


def _duel(**time_control):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(game="silkroad", players=[alice, bob], seed=5,
                                  time_control=time_control)  # fmt: skip
    return match, {alice.user.pk: alice, bob.user.pk: bob}


def _play_one(match, players):
    match.refresh_from_db()
    seat = match.seats.get(index=match.to_act)
    engine = get_engine(match.game)
    action = engine.legal_actions(engine.from_json(match.state))[0]
    services.submit_action(match_id=match.pk, user=seat.player.user, ply=match.ply, action=action)
    match.refresh_from_db()
    return match


def test_an_absurd_per_move_limit_gives_a_deadline_a_week_away_at_most():
    match, players = _duel(per_move_s=60)
    Match.objects.filter(pk=match.pk).update(per_move_s=_absurd())
    before = timezone.now()
    match = _play_one(match, players)
    assert match.status == MatchStatus.RUNNING
    assert before < match.deadline <= timezone.now() + timedelta(seconds=MAX_DECISION_S)


def test_the_time_out_task_survives_an_absurd_limit():
    match, _ = _duel(per_move_s=60)
    Match.objects.filter(pk=match.pk).update(
        per_move_s=_absurd(), deadline=timezone.now() - timedelta(seconds=1)
    )
    assert services.time_out(match_id=match.pk, ply=match.ply) is True
    match.refresh_from_db()
    assert match.deadline <= timezone.now() + timedelta(seconds=MAX_DECISION_S)


def test_an_absurd_clock_is_clamped_too():
    match, players = _duel(initial_s=60)
    Match.objects.filter(pk=match.pk).update(initial_s=_absurd())
    Seat.objects.filter(match=match).update(clock_ms=_absurd() * 1000)
    match = _play_one(match, players)
    assert match.deadline <= timezone.now() + timedelta(seconds=MAX_DECISION_S)


def test_an_ordinary_limit_is_untouched():
    match, players = _duel(per_move_s=90)
    start = timezone.now()
    match = _play_one(match, players)
    assert start + timedelta(seconds=89) < match.deadline <= timezone.now() + timedelta(seconds=90)
