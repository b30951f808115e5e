"""A club's guests: typed into one of its events, kept by the club and the same Player at
its next events (whatever the game); linked to an account once she signs up, with all her
entries in the club's events; only the club's organisers link her."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from clubs.models import ClubGuest
from games.models import Invitation, Player, PlayerKind, Seat
from games.services import invitations as invitation_services
from tests.clubs.factories_events import EventClubFactory, member, organiser_of
from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Entry
from tournaments.services import entrants, setup

pytestmark = pytest.mark.django_db


def _event(club, by, *, game: str = "yspahan", members_only: bool = False, name="Club night"):
    return setup.create_tournament(
        name=name, game=game, format="round_robin", organiser=by, over_the_board=True,
        auto_advance=False, seed=5, config={"table_size": 2},
        club=club.slug if club else None, members_only=members_only,
    )  # fmt: skip


def _play_first_table(t):
    services.start_tournament(tournament=t)
    table = t.rounds.get().tables.get()
    services.record_over_the_board_result(table=table, scores=[40, 30], tiebreak=[1, 2])


def test_a_guest_of_one_club_night_is_the_same_player_at_the_next():
    club = EventClubFactory()
    boss = organiser_of(club)
    first = _event(club, boss)
    jana = entrants.add_guest(tournament=first, name="Jana Nováková", by=boss).player
    kept = ClubGuest.objects.get()
    assert kept.club == club and kept.player == jana and jana.kind == PlayerKind.GUEST
    assert jana.game == ""  # the club's guest, for any of its games
    # Next week, another game; the name typed in another case.
    second = _event(club, organiser_of(club), game="silkroad", name="Next week")
    again = entrants.add_guest(tournament=second, name="  JANA  nováková ", by=boss)
    assert again.player == jana
    assert ClubGuest.objects.count() == 1
    assert Player.objects.filter(kind=PlayerKind.GUEST).count() == 1
    assert set(Entry.objects.filter(player=jana).values_list("tournament", flat=True)) == {
        first.pk, second.pk,
    }  # fmt: skip
    # Another name is another guest, kept as well.
    petr = entrants.add_guest(tournament=second, name="Petr", by=boss).player
    assert petr != jana and ClubGuest.objects.count() == 2


def test_the_add_guest_form_offers_the_clubs_guests_not_entered_yet():
    club = EventClubFactory()
    boss = organiser_of(club)
    first = _event(club, boss)
    entrants.add_guest(tournament=first, name="Jana", by=boss)
    entrants.add_guest(tournament=first, name="Petr", by=boss)
    second = _event(club, boss, name="Next week")
    entrants.add_guest(tournament=second, name="Petr", by=boss)
    client = Client()
    client.force_login(boss)
    html = client.get(f"/tournaments/{second.pk}/").content.decode()
    assert 'list="club-guests"' in html
    assert '<option value="Jana">' in html and '<option value="Petr">' not in html


def test_other_clubs_and_events_without_a_club_do_not_share_her():
    club, other = EventClubFactory(), EventClubFactory()
    boss = organiser_of(club)
    organiser_of(other, boss)
    jana = entrants.add_guest(tournament=_event(club, boss), name="Jana", by=boss).player
    theirs = entrants.add_guest(tournament=_event(other, boss), name="Jana", by=boss).player
    alone = entrants.add_guest(tournament=_event(None, boss), name="Jana", by=boss).player
    assert len({jana.pk, theirs.pk, alone.pk}) == 3
    assert ClubGuest.objects.filter(player=alone).count() == 0
    assert ClubGuest.objects.get(player=theirs).club == other


def test_a_club_guest_withdrawn_before_the_start_stays_the_clubs():
    club = EventClubFactory()
    boss = organiser_of(club)
    t = _event(club, boss)
    entry = entrants.add_guest(tournament=t, name="Jana", by=boss)
    services.withdraw_entry(entry=entry)
    assert not t.entries.exists()
    assert ClubGuest.objects.filter(player_id=entry.player_id).exists()
    # An ordinary guest still goes with her entry.
    lone = entrants.add_guest(tournament=_event(None, boss), name="Petr", by=boss)
    services.withdraw_entry(entry=lone)
    assert not Player.objects.filter(pk=lone.player_id).exists()


def _guest_in_two_nights(club, boss):
    """Jana, the club's guest, played the first night and is entered in the second."""
    first, second = _event(club, boss), _event(club, boss, name="Next week")
    entrants.join(tournament=first, user=member(club, HumanPlayerFactory().user))
    guest_entry = entrants.add_guest(tournament=first, name="Jana", by=boss)
    _play_first_table(first)
    entrants.add_guest(tournament=second, name="Jana", by=boss)
    return first, second, guest_entry


def test_linking_a_club_guest_moves_all_her_club_entries_once_she_accepts(
    api_client, django_capture_on_commit_callbacks
):
    club = EventClubFactory()
    boss = organiser_of(club)
    first, second, guest_entry = _guest_in_two_nights(club, boss)
    guest = guest_entry.player
    jana = HumanPlayerFactory()  # she signed up
    # Another organiser of the club links her, from the first night's page.
    api_client.force_authenticate(organiser_of(club))
    url = f"/api/tournaments/{first.pk}/entries/{guest_entry.pk}/link/"
    invited = api_client.post(url, {"player": jana.name}, format="json")
    assert invited.status_code == 202, invited.content
    assert Entry.objects.filter(player=guest).count() == 2  # nothing moves before she accepts
    with django_capture_on_commit_callbacks(execute=True):
        invitation_services.accept_invitation(
            invitation_id=invited.json()["invitation"]["id"], user=jana.user
        )
    assert set(Entry.objects.filter(player=jana).values_list("tournament", flat=True)) == {
        first.pk, second.pk,
    }  # fmt: skip
    assert Seat.objects.filter(match__table__round__tournament=first, player=jana).count() == 1
    assert not Player.objects.filter(pk=guest.pk).exists()
    assert not ClubGuest.objects.exists()  # her club guest row went with the guest


def test_only_the_clubs_organisers_link_its_guest(api_client):
    club = EventClubFactory()
    boss = organiser_of(club)
    first, _second, guest_entry = _guest_in_two_nights(club, boss)
    helper = UserFactory()  # runs the first night with the organiser, not the club's
    first.co_organisers.add(helper)
    api_client.force_authenticate(helper)
    url = f"/api/tournaments/{first.pk}/entries/{guest_entry.pk}/link/"
    refused = api_client.post(url, {"player": HumanPlayerFactory().name}, format="json")
    assert refused.status_code == 400 and "only the club's owner and organisers" in str(
        refused.json()
    )
    assert not Invitation.objects.exists()
    assert Entry.objects.filter(player=guest_entry.player).count() == 2


def test_a_link_that_would_enter_her_twice_is_refused_and_nothing_moves():
    club = EventClubFactory()
    boss = organiser_of(club)
    first, second, guest_entry = _guest_in_two_nights(club, boss)
    jana = member(club, HumanPlayerFactory().user).player
    entrants.join(tournament=second, user=jana.user)  # she came as herself the second night
    with pytest.raises(ValidationError) as refused:
        entrants.link_guest(entry=guest_entry, player=jana, by=boss)
    assert "Next week" in str(refused.value)
    assert Entry.objects.filter(player=guest_entry.player).count() == 2
    assert ClubGuest.objects.filter(player=guest_entry.player).exists()


def test_a_guest_of_a_members_only_night_links_only_to_a_member():
    club = EventClubFactory()
    boss = organiser_of(club)
    t = _event(club, boss, members_only=True)
    guest_entry = entrants.add_guest(tournament=t, name="Jana", by=boss)
    outsider = HumanPlayerFactory()
    with pytest.raises(ValidationError) as refused:
        entrants.link_guest(entry=guest_entry, player=outsider, by=boss)
    assert "not a member" in str(refused.value)
    assert not Invitation.objects.exists()
    inside = member(club, HumanPlayerFactory().user).player
    made = entrants.link_guest(entry=guest_entry, player=inside, by=boss)
    assert isinstance(made, Invitation)  # she accepts first, as any link
