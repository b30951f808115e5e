"""Linking a guest to an account with suggestions: the htmx list of matching accounts
(organisers only, folded names, at most 10, rate-limited) and the server's check of what
is posted (unknown or inactive account: an error, nothing changes)."""

import re

import pytest
from django.urls import reverse

from games.models import Invitation, Player
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, UserFactory
from tests.rates import set_rates
from tournaments import services
from tournaments.services import entrants

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    organiser = UserFactory(username="olga")
    t = services.create_tournament(name="Čtvrtek", game="yspahan", format="swiss", organiser=organiser,
                                   over_the_board=True, config={"table_size": 2})  # fmt: skip
    guest = entrants.add_guest(tournament=t, name="Jana", by=organiser)
    return organiser, t, guest


def _picks(html: str) -> list[str]:
    return re.findall(r'name="pick" value="([^"]+)"', html)


def _suggest(client, t, guest, text):
    return client.get(reverse("tournament-link-suggestions", args=[t.pk, guest.pk]),
                      {"player": text})  # fmt: skip


def test_suggestions_match_folded_names_of_active_people_not_entered(client, club):
    organiser, t, guest = club
    HumanPlayerFactory(user__username="alice", display_name="Alice Nováková")
    HumanPlayerFactory(user__username="malice")
    HumanPlayerFactory(user__username="bob", display_name="Bob Alitalia")
    HumanPlayerFactory(user__username="alina", is_active=False)
    blocked = HumanPlayerFactory(user__username="alibaba")
    blocked.user.is_active = False
    blocked.user.save()
    entered = HumanPlayerFactory(user__username="alix")
    services.add_entry(tournament=t, player=entered)
    EngineBotFactory(name="alien-bot")
    client.force_login(organiser)
    # Names that begin with it first, then names or display names containing it.
    assert _picks(_suggest(client, t, guest, "ALI").content.decode()) == ["alice", "bob", "malice"]
    assert _picks(_suggest(client, t, guest, "ＡＬＩ").content.decode()) == [
        "alice", "bob", "malice",
    ]  # fmt: skip  # full-width letters fold to the same name
    assert _picks(_suggest(client, t, guest, "Nová").content.decode()) == ["alice"]
    nothing = _suggest(client, t, guest, "zzz").content.decode()
    assert _picks(nothing) == [] and "No active account matches “zzz”." in nothing
    assert _suggest(client, t, guest, "  ").content.decode().strip() == ""


def test_at_most_ten_suggestions(client, club):
    organiser, t, guest = club
    for i in range(14):
        HumanPlayerFactory(user__username=f"member-{i:02d}")
    client.force_login(organiser)
    picks = _picks(_suggest(client, t, guest, "member").content.decode())
    assert picks == [f"member-{i:02d}" for i in range(10)]


def test_only_the_organiser_gets_suggestions_and_they_are_rate_limited(client, club, settings):
    organiser, t, guest = club
    HumanPlayerFactory(user__username="alice")
    assert _suggest(client, t, guest, "ali").status_code == 302  # to the log-in page
    client.force_login(UserFactory())
    assert _suggest(client, t, guest, "ali").status_code == 403
    set_rates(settings, player_search="2/min")
    client.force_login(organiser)
    assert _picks(_suggest(client, t, guest, "ali").content.decode()) == ["alice"]
    assert _picks(_suggest(client, t, guest, "ali").content.decode()) == ["alice"]
    third = _suggest(client, t, guest, "ali").content.decode()
    assert _picks(third) == [] and "Too many attempts" in third


def test_a_picked_suggestion_invites_the_account_holder(client, club):
    organiser, t, guest = club
    alice = HumanPlayerFactory(user__username="alice")
    client.force_login(organiser)
    url = reverse("tournament-link-guest", args=[t.pk, guest.pk])
    page = client.post(url, {"player": "ali", "pick": "alice"}, follow=True).content.decode()
    assert "alice invited" in page
    invitation = Invitation.objects.get(player=alice)
    assert (invitation.target_kind, invitation.target_id) == (entrants.LINK_TARGET, guest.pk)


def test_a_typed_name_is_folded_and_the_organisers_own_account_is_linked_at_once(client, club):
    organiser, t, guest = club
    client.force_login(organiser)
    url = reverse("tournament-link-guest", args=[t.pk, guest.pk])
    page = client.post(url, {"player": "OLGA"}, follow=True).content.decode()
    assert "Jana linked to olga." in page
    guest.refresh_from_db()
    assert guest.player_id == organiser.player.pk


@pytest.mark.parametrize("who", ["unknown", "inactive player", "inactive account", "guest"])
def test_unknown_or_inactive_accounts_are_refused_and_nothing_changes(client, club, who):
    organiser, t, guest = club
    name = {"unknown": "nobody-here", "guest": Player.objects.get(pk=guest.player_id).name}.get(
        who, "carl"
    )
    if who == "inactive player":
        HumanPlayerFactory(user__username="carl", is_active=False)
    elif who == "inactive account":
        carl = HumanPlayerFactory(user__username="carl")
        carl.user.is_active = False
        carl.user.save()
    client.force_login(organiser)
    url = reverse("tournament-link-guest", args=[t.pk, guest.pk])
    page = client.post(url, {"player": "x", "pick": name}, follow=True).content.decode()
    expected = "account is not active." if who.startswith("inactive") else "No account is called"
    assert expected in page
    guest.refresh_from_db()
    assert Player.objects.get(pk=guest.player_id).kind == "guest"
    assert not Invitation.objects.exists()


def test_the_link_box_asks_for_suggestions(client, club):
    organiser, t, guest = club
    client.force_login(organiser)
    page = client.get(reverse("tournament-detail", args=[t.pk])).content.decode()
    hx = reverse("tournament-link-suggestions", args=[t.pk, guest.pk])
    assert f'hx-get="{hx}"' in page and f'id="link-suggestions-{guest.pk}"' in page
