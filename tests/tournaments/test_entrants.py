"""Guests, self-registration, the entry limit, check-in and linking a guest to an account
(tournaments.services.entrants), through the services, the API and the pages."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from games.models import Invitation, Match, Player, PlayerKind, Seat
from games.services import invitations as invitation_services
from ratings import services as rating_services
from ratings.models import Rating, RatingChange
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Entry, Tournament
from tournaments.services import entrants

pytestmark = pytest.mark.django_db


def _club(organiser, **extra) -> Tournament:
    kwargs = {"config": {"table_size": 2}, "over_the_board": True, "auto_advance": False,
              "seed": 5, "format": "round_robin"}  # fmt: skip
    return services.create_tournament(name="Club night", game="yspahan", organiser=organiser,
                                      **{**kwargs, **extra})  # fmt: skip


# ---- guests ----------------------------------------------------------------------
def test_a_guest_is_a_player_without_account_and_plays_unrated():
    organiser = UserFactory()
    organiser.user_permissions.add(
        __import__("django.contrib.auth.models", fromlist=["Permission"]).Permission.objects.get(
            codename="run_rated_events"
        )
    )
    t = _club(organiser)
    assert t.rated is True
    member = HumanPlayerFactory()
    entrants.join(tournament=t, user=member.user)
    guest_entry = entrants.add_guest(tournament=t, name="  Jana   Nováková ", by=organiser)
    guest = guest_entry.player
    assert guest.kind == PlayerKind.GUEST and guest.user_id is None
    assert str(guest) == "Jana Nováková" and not guest.is_active
    services.start_tournament(tournament=t)
    table = t.rounds.get().tables.get()
    assert services.record_over_the_board_result(table=table, scores=[40, 30], tiebreak=[1, 2])
    match = Match.objects.get(table=table)
    assert match.rated is False  # a table with a guest never moves a rating
    rating_services.on_match_finished(match_id=match.pk)
    assert RatingChange.objects.count() == 0 and Rating.objects.count() == 0


@pytest.mark.parametrize(
    "name,message",
    [("", "Give the guest"), ("   ", "Give the guest"), ("x" * 61, "at most 60"),
     ("alice", "already entered"), ("ALICE", "already entered"), ("Jana", "already entered")],
)  # fmt: skip
def test_bad_guest_names_change_nothing(name, message):
    organiser = UserFactory()
    t = _club(organiser)
    HumanPlayerFactory(user=UserFactory(username="alice"))
    entrants.join(tournament=t, user=Player.objects.get(name="alice").user)
    entrants.add_guest(tournament=t, name="Jana", by=organiser)
    before = (Entry.objects.count(), Player.objects.count())
    with pytest.raises(ValidationError, match=message):
        entrants.add_guest(tournament=t, name=name, by=organiser)
    assert (Entry.objects.count(), Player.objects.count()) == before


def test_only_the_organiser_enters_guests_and_only_over_the_board():
    organiser = UserFactory()
    t = _club(organiser)
    with pytest.raises(PermissionDenied):
        entrants.add_guest(tournament=t, name="Jana", by=UserFactory())
    online = _club(organiser, over_the_board=False)
    with pytest.raises(ValidationError, match="over the board"):
        entrants.add_guest(tournament=online, name="Jana", by=organiser)
    assert not Player.objects.filter(kind=PlayerKind.GUEST).exists()


def test_guests_through_the_api(api_client):
    organiser = UserFactory()
    t = _club(organiser)
    url = f"/api/tournaments/{t.pk}/entries/"
    api_client.force_authenticate(UserFactory())
    assert api_client.post(url, {"guest": "Jana"}, format="json").status_code == 403
    api_client.force_authenticate(organiser)
    made = api_client.post(url, {"guest": "Jana"}, format="json")
    assert made.status_code == 201, made.content
    # "player" is the handle in every answer (a guest's is made up); "name" the shown one
    assert made.json()["guest"] is True and made.json()["name"] == "Jana"
    assert made.json()["player"].startswith("guest-")
    standings = api_client.get(f"/api/tournaments/{t.pk}/standings/")
    assert standings.status_code == 200
    for bad in ["", "  ", "jana", "y" * 61, "z" * 2000]:
        response = api_client.post(url, {"guest": bad}, format="json")
        assert response.status_code == 400, (bad, response.content)
        assert "guest" in response.json()["fields"]
    assert t.entries.count() == 1
    assert api_client.get(f"/api/tournaments/{t.pk}/").json()["entrants"] == 1


# ---- join / leave / limit ----------------------------------------------------------
def test_join_and_leave_while_entries_are_open(api_client):
    t = _club(UserFactory(), entry_limit=2)
    a, b, c = (HumanPlayerFactory() for _ in range(3))
    api_client.force_authenticate(a.user)
    assert api_client.post(f"/api/tournaments/{t.pk}/join/").status_code == 201
    again = api_client.post(f"/api/tournaments/{t.pk}/join/")
    assert again.status_code == 400 and "already entered" in str(again.json())
    api_client.force_authenticate(b.user)
    assert api_client.post(f"/api/tournaments/{t.pk}/join/").status_code == 201
    api_client.force_authenticate(c.user)
    full = api_client.post(f"/api/tournaments/{t.pk}/join/")  # full: the waitlist
    assert full.status_code == 201 and full.json()["waitlisted"] is True
    api_client.force_authenticate(b.user)
    assert api_client.post(f"/api/tournaments/{t.pk}/leave/").status_code == 204
    api_client.force_authenticate(c.user)  # moved up into b's place
    assert set(entrants.entered(t).values_list("player_id", flat=True)) == {a.pk, c.pk}
    assert set(t.entries.values_list("player_id", flat=True)) == {a.pk, c.pk}
    assert api_client.post(f"/api/tournaments/{t.pk}/leave/", HTTP_X="1").status_code == 204
    assert api_client.post(f"/api/tournaments/{t.pk}/leave/").status_code == 400


def test_entries_close_at_the_start():
    organiser = UserFactory()
    t = _club(organiser)
    players = [HumanPlayerFactory() for _ in range(3)]
    for p in players[:2]:
        entrants.join(tournament=t, user=p.user)
    services.start_tournament(tournament=t)
    with pytest.raises(ValidationError, match="closed"):
        entrants.join(tournament=t, user=players[2].user)
    with pytest.raises(ValidationError, match="closed"):
        entrants.leave(tournament=t, user=players[0].user)


def test_the_limit_also_holds_for_invitations_and_organiser_entries(
    django_capture_on_commit_callbacks,
):
    organiser = UserFactory()
    t = _club(organiser, entry_limit=2)
    entrants.add_guest(tournament=t, name="Jana", by=organiser)
    entrants.add_guest(tournament=t, name="Petr", by=organiser)
    # Full before the start: the organiser's entry waits (tests/tournaments/test_waitlist.py).
    bot = services.enter_player(tournament=t, player=EngineBotFactory(game=""), by=organiser)
    assert bot.waitlisted_at is not None
    invited = HumanPlayerFactory()
    invitation = services.enter_player(tournament=t, player=invited, by=organiser)
    assert isinstance(invitation, Invitation)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        invitation_services.accept_invitation(invitation_id=invitation.pk, user=invited.user)
    assert callbacks  # the acceptance was announced
    # Accepted, but the tournament was full: the entry waits behind the bot.
    assert entrants.active_count(t) == 2
    assert [e.player for e in entrants.waitlist(t)] == [bot.player, invited]


# ---- check-in ----------------------------------------------------------------------
def test_with_check_in_only_checked_in_entrants_are_paired(api_client):
    organiser = UserFactory()
    t = _club(organiser, check_in=True, format="swiss")
    players = [HumanPlayerFactory() for _ in range(3)]
    for p in players:
        entrants.join(tournament=t, user=p.user)
    guest = entrants.add_guest(tournament=t, name="Jana", by=organiser)
    mine = t.entries.get(player=players[0])
    api_client.force_authenticate(players[0].user)
    assert api_client.post(f"/api/tournaments/{t.pk}/entries/{mine.pk}/check-in/").json() == {
        "entry": mine.pk, "checked_in": True}  # fmt: skip
    other = t.entries.get(player=players[1])
    # Nobody checks in someone else, except the organiser.
    assert (
        api_client.post(f"/api/tournaments/{t.pk}/entries/{other.pk}/check-in/").status_code == 403
    )
    api_client.force_authenticate(organiser)
    for e in (other, guest):
        assert (
            api_client.post(f"/api/tournaments/{t.pk}/entries/{e.pk}/check-in/").status_code == 200
        )
    services.start_tournament(tournament=t)
    seated = {s.entry_id for table in t.rounds.get().tables.all() for s in table.seats.all()}
    byes = set(t.rounds.get().byes.values_list("entry_id", flat=True))
    assert seated | byes == {mine.pk, other.pk, guest.pk}
    late = t.entries.get(player=players[2])
    assert late.withdrawn_after == 0 and late.pk not in seated | byes
    closed = api_client.post(f"/api/tournaments/{t.pk}/entries/{mine.pk}/check-in/")
    assert closed.status_code == 400


def test_check_in_needs_the_option():
    organiser = UserFactory()
    t = _club(organiser)
    entry = entrants.add_guest(tournament=t, name="Jana", by=organiser)
    with pytest.raises(ValidationError, match="no check-in"):
        entrants.check_in(entry=entry, by=organiser)


# ---- guest -> account ----------------------------------------------------------------
def _played_guest(organiser):
    t = _club(organiser)
    member = HumanPlayerFactory()
    entrants.join(tournament=t, user=member.user)
    guest_entry = entrants.add_guest(tournament=t, name="Jana", by=organiser)
    services.start_tournament(tournament=t)
    table = t.rounds.get().tables.get()
    services.record_over_the_board_result(table=table, scores=[40, 30], tiebreak=[1, 2])
    return t, guest_entry


def test_linking_a_guest_needs_the_account_holders_consent(
    api_client, django_capture_on_commit_callbacks
):
    organiser = UserFactory()
    t, guest_entry = _played_guest(organiser)
    guest_id = guest_entry.player_id
    jana = HumanPlayerFactory()
    api_client.force_authenticate(UserFactory())
    url = f"/api/tournaments/{t.pk}/entries/{guest_entry.pk}/link/"
    assert api_client.post(url, {"player": jana.name}, format="json").status_code == 403
    api_client.force_authenticate(organiser)
    invited = api_client.post(url, {"player": jana.name}, format="json")
    assert invited.status_code == 202, invited.content
    guest_entry.refresh_from_db()
    assert guest_entry.player_id == guest_id  # nothing moves before she accepts
    with django_capture_on_commit_callbacks(execute=True):
        invitation_services.accept_invitation(
            invitation_id=invited.json()["invitation"]["id"], user=jana.user
        )
    guest_entry.refresh_from_db()
    assert guest_entry.player_id == jana.pk
    assert Seat.objects.filter(match__table__round__tournament=t, player=jana).count() == 1
    assert not Player.objects.filter(pk=guest_id).exists()
    assert not Match.objects.filter(table__round__tournament=t, rated=True).exists()
    standings = api_client.get(f"/api/tournaments/{t.pk}/standings/").json()
    assert jana.name in {row["player"] for row in standings}


def test_the_organiser_links_a_guest_to_his_own_account_at_once():
    organiser = UserFactory()
    t, guest_entry = _played_guest(organiser)
    made = entrants.link_guest(entry=guest_entry, player=organiser.player, by=organiser)
    assert isinstance(made, Entry) and made.player_id == organiser.player.pk


def test_bad_links_change_nothing():
    organiser = UserFactory()
    t, guest_entry = _played_guest(organiser)
    member_entry = t.entries.exclude(pk=guest_entry.pk).get()
    with pytest.raises(ValidationError, match="Only a guest"):
        entrants.link_guest(entry=member_entry, player=HumanPlayerFactory(), by=organiser)
    with pytest.raises(ValidationError, match="already entered"):
        entrants.link_guest(entry=guest_entry, player=member_entry.player, by=organiser)
    with pytest.raises(ValidationError, match="person"):
        entrants.link_guest(entry=guest_entry, player=EngineBotFactory(), by=organiser)
    guest_entry.refresh_from_db()
    assert guest_entry.player.kind == PlayerKind.GUEST


# ---- pages -------------------------------------------------------------------------------
def test_join_leave_and_guest_buttons_on_the_page(client):
    organiser = UserFactory()
    t = _club(organiser, entry_limit=2, check_in=True, venue="Klub U Karavany")
    member = HumanPlayerFactory()
    client.force_login(member.user)
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert 'id="join"' in page and "Klub U Karavany" in page
    assert 'id="add-guest"' not in page and 'id="cancel"' not in page
    client.post(reverse("tournament-join", args=[t.pk]))
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert 'id="leave"' in page and 'id="check-in"' in page and 'id="join"' not in page
    assert (
        client.post(reverse("tournament-add-guest", args=[t.pk]), {"guest": "Jana"}).status_code
        == 403
    )
    client.force_login(organiser)
    response = client.post(
        reverse("tournament-add-guest", args=[t.pk]), {"guest": "Jana"}, follow=True
    )
    assert "Guest Jana entered" in response.content.decode()
    assert 'id="add-guest"' in response.content.decode()
    other = HumanPlayerFactory()
    client.force_login(other.user)
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    assert "The tournament is full" in page and 'id="join"' not in page
    assert 'id="join-waitlist"' in page
    response = client.post(reverse("tournament-join", args=[t.pk]), follow=True)
    assert "you are on the waitlist (position 1)" in response.content.decode()
    client.force_login(member.user)
    client.post(reverse("tournament-leave", args=[t.pk]))
    assert not t.entries.filter(player=member).exists()


def test_a_guest_withdrawn_before_the_start_leaves_no_player_behind():
    organiser = UserFactory()
    t = _club(organiser)
    entry = entrants.add_guest(tournament=t, name="Jana", by=organiser)
    services.withdraw_entry(entry=entry)
    assert not Player.objects.filter(kind=PlayerKind.GUEST).exists()
    played_t, played = _played_guest(organiser)
    played_t.delete()  # entries cascade; the guest's seats keep him
    assert Player.objects.filter(pk=played.player_id).exists()
