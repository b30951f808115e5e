"""Open seats: a match waits, not running, until anyone took every open seat."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from games import services, tasks
from games.models import Invitation, InvitationStatus, Match, MatchStatus, OpenSeat, Seat
from tests.games.factories import EngineBotFactory, ExternalBotFactory, HumanPlayerFactory

pytestmark = pytest.mark.django_db


def _open(creator, *, seats=2, bots=0, rated=False, **kwargs):
    players = [creator, *(EngineBotFactory() for _ in range(bots))]
    players += [None] * (seats - len(players))
    return services.create_match(
        game="silkroad", players=players, created_by=creator.user, rated=rated,
        time_control={"initial_s": 600, "increment_s": 5}, **kwargs,
    )  # fmt: skip


def test_a_match_with_an_open_seat_waits_with_no_clock_running():
    alice = HumanPlayerFactory()
    match = _open(alice)
    assert match.status == MatchStatus.PENDING and match.started_at is None
    assert match.deadline is None and match.to_act is None and match.state is None
    assert list(match.seats.values_list("index", flat=True)) == [0]
    assert list(match.open_seats.values_list("index", flat=True)) == [1]


def test_the_last_seat_taken_starts_the_match_like_any_other():
    alice, bob, carol = HumanPlayerFactory(), HumanPlayerFactory(), HumanPlayerFactory()
    match = _open(alice, seats=3)
    seat = services.join_match(match_id=match.pk, user=bob.user)
    match.refresh_from_db()
    assert seat.index == 1 and seat.player == bob and seat.clock_ms == 600_000
    assert match.status == MatchStatus.PENDING  # one seat still open
    services.join_match(match_id=match.pk, user=carol.user)
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING and match.started_at is not None
    assert match.state is not None and match.to_act is not None
    assert not OpenSeat.objects.filter(match=match).exists()
    names = list(match.seats.order_by("index").values_list("player__name", flat=True))
    assert names == [alice.name, bob.name, carol.name]


def test_joining_a_started_full_or_own_match_is_refused_and_changes_nothing():
    alice, bob, carol = HumanPlayerFactory(), HumanPlayerFactory(), HumanPlayerFactory()
    match = _open(alice, seats=3)
    with pytest.raises(services.AlreadySeated):
        services.join_match(match_id=match.pk, user=alice.user)
    services.join_match(match_id=match.pk, user=bob.user)
    with pytest.raises(services.AlreadySeated):
        services.join_match(match_id=match.pk, user=bob.user)
    assert Seat.objects.filter(match=match).count() == 2
    services.join_match(match_id=match.pk, user=carol.user)
    with pytest.raises(services.AlreadyStarted):
        services.join_match(match_id=match.pk, user=HumanPlayerFactory().user)
    with pytest.raises(services.MatchNotFound):
        services.join_match(match_id=match.pk + 1000, user=bob.user)


def test_a_full_match_still_waiting_for_an_invitee_is_full():
    alice, bob, carol, dave = (HumanPlayerFactory() for _ in range(4))
    match = services.create_match(
        game="silkroad", players=[alice, bob, None], created_by=alice.user
    )
    services.join_match(match_id=match.pk, user=carol.user)
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING  # bob has not accepted
    with pytest.raises(services.MatchFull):
        services.join_match(match_id=match.pk, user=dave.user)
    invitation = Invitation.objects.get(match=match, player=bob)
    services.accept_invitation(invitation_id=invitation.pk, user=bob.user)
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING


def test_accepting_the_invitation_does_not_start_a_match_with_a_seat_open():
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(
        game="silkroad", players=[alice, bob, None], created_by=alice.user
    )
    invitation = Invitation.objects.get(match=match, player=bob)
    services.accept_invitation(invitation_id=invitation.pk, user=bob.user)
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING
    services.join_match(match_id=match.pk, user=HumanPlayerFactory().user)
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING


def test_an_owners_bot_cannot_take_the_second_seat():
    alice = HumanPlayerFactory()
    bot = ExternalBotFactory(owner=alice.user)
    match = _open(alice, rated=True)
    with pytest.raises(services.AlreadySeated):
        services.join_match(match_id=match.pk, user=bot.user)
    assert match.open_seats.count() == 1


def test_a_rated_open_match_is_rated_once_a_stranger_joins():
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = _open(alice, rated=True)
    services.join_match(match_id=match.pk, user=bob.user)
    match.refresh_from_db()
    assert match.rated and match.status == MatchStatus.RUNNING


def test_a_chosen_seed_still_makes_an_open_match_unrateable():
    alice = HumanPlayerFactory()
    with pytest.raises(ValidationError):
        _open(alice, rated=True, seed=5)
    assert not Match.objects.exists()


def test_open_seats_need_a_creator_and_someone_seated():
    alice = HumanPlayerFactory()
    with pytest.raises(ValidationError):
        services.create_match(game="silkroad", players=[None, None], created_by=alice.user)
    with pytest.raises(ValidationError):
        services.create_match(game="silkroad", players=[EngineBotFactory(), None])
    assert not Match.objects.exists()


def test_the_creator_cancels_a_waiting_match_and_nobody_can_join_it():
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = _open(alice)
    with pytest.raises(services.NotYourSeat):
        services.abort_match(match_id=match.pk, user=bob.user)
    services.abort_match(match_id=match.pk, user=alice.user)
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED
    with pytest.raises(services.AlreadyStarted):
        services.join_match(match_id=match.pk, user=bob.user)


def test_waiting_open_matches_expire_after_a_day():
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    old, fresh = _open(alice), _open(alice)
    other = services.create_match(
        game="silkroad", players=[alice, bob, None], created_by=alice.user
    )
    day_ago = timezone.now() - timedelta(days=1, minutes=1)
    Match.objects.filter(pk__in=[old.pk, other.pk]).update(created_at=day_ago)
    with pytest.raises(services.AlreadyStarted):  # refused even before the sweep ran
        services.join_match(match_id=old.pk, user=bob.user)
    old.refresh_from_db()
    assert old.status == MatchStatus.ABORTED and "in time" in old.abort_reason
    tasks.expire_invitations()  # the periodic task sweeps open seats too
    other.refresh_from_db()
    fresh.refresh_from_db()
    assert other.status == MatchStatus.ABORTED
    assert other.invitations.get().status == InvitationStatus.CANCELLED
    assert fresh.status == MatchStatus.PENDING
    assert services.expire_open_matches() == 0
