"""The invitations page names what an entry invitation is for (through
settings.INVITATION_TARGETS: games imports no tournaments): the tournament, linked, in the
open and in the answered list; a guest's results to take over; a target gone is a number."""

import re

import pytest
from django.test import Client
from django.utils import translation

from games import selectors
from games import services as game_services
from games.models import Invitation
from tests.config.test_i18n import CZECH
from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Tournament
from tournaments.services import entrants

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _back_to_english():
    yield
    translation.activate("en")  # a Czech request leaves Czech active in this thread


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _section(html: str, cls: str) -> str:
    found = re.search(rf'<ul class="{cls}">.*?</ul>', html, re.S)
    assert found, cls
    return found.group(0)


def _tournament(name: str, organiser):
    return services.create_tournament(name=name, game="silkroad", format="swiss",
                                      organiser=organiser, config={"table_size": 2},
                                      over_the_board=True)  # fmt: skip  # guests too


def test_open_and_answered_invitations_name_the_tournament():
    alice = UserFactory(username="alice")
    bob = HumanPlayerFactory()
    spring = _tournament("Spring Yspahan Open", alice)
    autumn = _tournament("Autumn <League>", alice)
    open_one = entrants.enter_player(tournament=spring, player=bob, by=alice)
    answered = entrants.enter_player(tournament=autumn, player=bob, by=alice)
    assert isinstance(open_one, Invitation) and isinstance(answered, Invitation)
    game_services.decline_invitation(invitation_id=answered.pk, user=bob.user)
    client = Client()
    client.force_login(bob.user)
    html = client.get("/invitations/").content.decode()
    open_list = _section(html, "invitations")
    assert f'<a href="/tournaments/{spring.pk}/">Spring Yspahan Open</a>' in open_list
    assert "alice invites you to the tournament Spring Yspahan Open" in _text(open_list)
    assert f"#{spring.pk}" not in _text(open_list)
    closed = _section(html, "invitations-closed")
    # The name is escaped like any text.
    assert f'<a href="/tournaments/{autumn.pk}/">Autumn &lt;League&gt;</a>' in closed
    assert "Tournament Autumn <League> : declined" in _text(closed).replace("&lt;", "<").replace(
        "&gt;", ">"
    )
    assert "tournament #" not in html
    czech = _text(client.get("/invitations/", **CZECH).content.decode())
    assert "alice vás zve do turnaje Spring Yspahan Open" in czech
    assert "Turnaj Autumn &lt;League&gt; : odmítnuto" in czech


def test_a_league_invitation_says_league():
    alice = UserFactory(username="alice")
    bob = HumanPlayerFactory()
    league = services.create_tournament(name="Winter", game="yspahan", format="league",
                                        organiser=alice, config={"table_size": 2},
                                        over_the_board=True)  # fmt: skip
    assert isinstance(entrants.enter_player(tournament=league, player=bob, by=alice), Invitation)
    client = Client()
    client.force_login(bob.user)
    english = _text(_section(client.get("/invitations/").content.decode(), "invitations"))
    assert "alice invites you to the league Winter" in english
    assert "tournament" not in english
    czech = _text(_section(client.get("/invitations/", **CZECH).content.decode(), "invitations"))
    assert "alice vás zve do ligy Winter" in czech


def test_a_guest_link_names_the_guest_and_the_tournament():
    olga = UserFactory(username="olga")
    t = _tournament("Čtvrtek", olga)
    guest = entrants.add_guest(tournament=t, name="Jana", by=olga)
    bob = HumanPlayerFactory()
    invitation = entrants.link_guest(entry=guest, player=bob, by=olga)
    assert isinstance(invitation, Invitation)
    client = Client()
    client.force_login(bob.user)
    html = client.get("/invitations/").content.decode()
    assert "olga invites you: guest Jana's results in Čtvrtek" in _text(html).replace("&#x27;", "'")
    assert f'href="/tournaments/{t.pk}/"' in _section(html, "invitations")
    assert "tournament_guest" not in html


def test_targets_gone_show_their_number_and_each_kind_is_one_query(django_assert_num_queries):
    alice = UserFactory(username="alice")
    bob = HumanPlayerFactory()
    kept, gone = _tournament("Kept", alice), _tournament("Gone", alice)
    guest = entrants.add_guest(tournament=kept, name="Jana", by=alice)
    invitations = [
        entrants.enter_player(tournament=kept, player=bob, by=alice),
        entrants.enter_player(tournament=gone, player=bob, by=alice),
        entrants.link_guest(entry=guest, player=bob, by=alice),
    ]
    gone_pk = gone.pk
    Tournament.objects.filter(pk=gone_pk).delete()
    with django_assert_num_queries(2):  # the tournaments, the guests' entries
        selectors.with_targets(invitations)
    assert invitations[0].target["name"] == "Kept" and invitations[1].target is None
    assert invitations[2].target["url"] == f"/tournaments/{kept.pk}/"
    client = Client()
    client.force_login(bob.user)
    open_list = _text(_section(client.get("/invitations/").content.decode(), "invitations"))
    assert f"alice invites you to the tournament #{gone_pk}" in open_list
    assert "alice invites you to the tournament Kept" in open_list
