"""The club pages: the directory and its search (without JS), founding, joining, accepting,
roles, the confirmation pages of final actions, a Czech page, and a members-only club that
hides its members from outsiders."""

import re

import pytest
from django.test import Client
from django.utils import translation

from clubs.models import Club, Membership, MembershipStatus, Role, Visibility
from tests.clubs.factories import ClubFactory, MembershipFactory, owner_of
from tests.config.test_i18n import CZECH
from tests.games.factories import HumanPlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _back_to_english():
    yield
    translation.activate("en")  # a Czech request leaves Czech active in this thread


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _page(client, url, **extra) -> str:
    r = client.get(url, **extra)
    assert r.status_code == 200, (url, r.status_code)
    return r.content.decode()


def test_directory_lists_public_clubs_and_searches_by_name_and_city():
    ClubFactory(name="Brno Nomads", city="Brno")
    ClubFactory(name="Praha Caravan", city="Praha")
    ClubFactory(name="Hidden Brno", city="Brno", visibility=Visibility.MEMBERS)
    html = _page(_client(), "/clubs/")
    assert "Brno Nomads" in html and "Praha Caravan" in html and "Hidden Brno" not in html
    assert '<form method="get" action="/clubs/"' in html  # a plain GET form: no JS needed
    found = _text(_page(_client(), "/clubs/?city=brno"))
    assert "Brno Nomads" in found and "Praha Caravan" not in found
    found = _text(_page(_client(), "/clubs/?q=caravan"))
    assert "Praha Caravan" in found and "Brno Nomads" not in found
    assert "No club matches the search." in _text(_page(_client(), "/clubs/?q=zzz"))
    assert '<meta name="viewport" content="width=device-width' in html  # phones


def test_the_header_links_to_the_clubs():
    html = _page(_client(), "/clubs/")
    nav = re.search(r'<nav aria-label="Site">.*?</nav>', html, re.S).group(0)
    assert '<a href="/clubs/">Clubs</a>' in nav


def test_found_a_club_from_the_page():
    alice = UserFactory()
    assert _client().get("/clubs/new/").status_code == 302  # to the log-in
    client = _client(alice)
    _page(client, "/clubs/new/")
    r = client.post("/clubs/new/", {"name": "Great Wall Ostrava", "city": "Ostrava",
                                    "visibility": "public", "languages": ["cs", "en"]})  # fmt: skip
    assert r.status_code == 302 and r["Location"] == "/clubs/great-wall-ostrava/"
    club = Club.objects.get(slug="great-wall-ostrava")
    assert club.languages == ["en", "cs"] and owner_of(club) == alice
    r = client.post("/clubs/new/", {"name": "Bad logo", "visibility": "public",
                                    "logo_url": "http://example.com/x.png"})  # fmt: skip
    assert r.status_code == 200 and "https://" in _text(r.content.decode())
    assert Club.objects.count() == 1


def test_ask_to_join_wait_accept_and_the_club_page_shows_members_with_ratings():
    club = ClubFactory(name="Yspahan Friends")
    bob = HumanPlayerFactory()
    client = _client(bob.user)
    html = _page(client, f"/clubs/{club.slug}/")
    assert f'action="/clubs/{club.slug}/join/"' in html
    r = client.post(f"/clubs/{club.slug}/join/")
    assert r.status_code == 302
    html = _page(client, f"/clubs/{club.slug}/")
    assert "Your request is waiting" in _text(html)
    client.post(f"/clubs/{club.slug}/join/")  # twice: a message, nothing changed
    assert club.memberships.filter(user=bob.user).count() == 1
    asked = club.memberships.get(user=bob.user)
    # Bob may not accept himself; the owner does, from the members page.
    assert client.post(f"/clubs/{club.slug}/members/{asked.pk}/accept/").status_code == 403
    owner = _client(owner_of(club))
    members = _page(owner, f"/clubs/{club.slug}/members/")
    assert f'action="/clubs/{club.slug}/members/{asked.pk}/accept/"' in members
    owner.post(f"/clubs/{club.slug}/members/{asked.pk}/accept/")
    asked.refresh_from_db()
    assert asked.status == MembershipStatus.ACTIVE
    text = _text(_page(_client(), f"/clubs/{club.slug}/"))
    assert bob.user.username in text and "2 members" in text and "Organisers" in text


def test_the_owner_sets_roles_an_organiser_may_not():
    club = ClubFactory()
    member = MembershipFactory(club=club)
    organiser = MembershipFactory(club=club, role=Role.ORGANISER)
    _client(organiser.user).post(
        f"/clubs/{club.slug}/members/{member.pk}/role/", {"role": "organiser"}
    )
    member.refresh_from_db()
    assert member.role == Role.MEMBER
    owner = _client(owner_of(club))
    html = _page(owner, f"/clubs/{club.slug}/members/")
    assert "Make an organiser" in html
    owner.post(f"/clubs/{club.slug}/members/{member.pk}/role/", {"role": "organiser"})
    member.refresh_from_db()
    assert member.role == Role.ORGANISER
    r = owner.post(f"/clubs/{club.slug}/members/{member.pk}/role/", {"role": "owner"}, follow=True)
    assert "organiser" in _text(r.content.decode()).lower()
    member.refresh_from_db()
    assert member.role == Role.ORGANISER


def test_final_actions_ask_first_leave_remove_hand_over():
    club = ClubFactory(name="Nomads")
    owner_user = owner_of(club)
    bob = MembershipFactory(club=club)
    carol = MembershipFactory(club=club)
    # Leave: GET asks and changes nothing; POST leaves.
    client = _client(bob.user)
    html = _page(client, f"/clubs/{club.slug}/leave/")
    assert "Leave Nomads?" in html and 'id="confirm"' in html and 'id="go-back"' in html
    assert Membership.objects.filter(pk=bob.pk).exists()
    client.post(f"/clubs/{club.slug}/leave/")
    assert not Membership.objects.filter(pk=bob.pk).exists()
    # Remove: the same shape, organisers only.
    owner = _client(owner_user)
    url = f"/clubs/{club.slug}/members/{carol.pk}/remove/"
    assert _client(UserFactory()).get(url).status_code == 403
    assert f"Remove {carol.user.username}?" in _page(owner, url)
    assert Membership.objects.filter(pk=carol.pk).exists()
    # Hand over: asks, then the new owner owns and the old one organises.
    dave = MembershipFactory(club=club)
    url = f"/clubs/{club.slug}/members/{dave.pk}/hand-over/"
    assert _client(dave.user).get(url).status_code == 403
    assert "becomes the club" in _page(owner, url)
    dave.refresh_from_db()
    assert dave.role == Role.MEMBER
    owner.post(url)
    roles = dict(club.memberships.values_list("user_id", "role"))
    assert roles[dave.user_id] == Role.OWNER and roles[owner_user.pk] == Role.ORGANISER
    owner.post(f"/clubs/{club.slug}/members/{carol.pk}/remove/")
    assert not Membership.objects.filter(pk=carol.pk).exists()


def test_the_last_owner_leaving_is_refused_with_a_message():
    club = ClubFactory()
    owner = _client(owner_of(club))
    r = owner.post(f"/clubs/{club.slug}/leave/", follow=True)
    assert "hand it over" in _text(r.content.decode())
    assert club.memberships.count() == 1


def test_invite_by_user_name_from_the_members_page():
    club = ClubFactory()
    carol = HumanPlayerFactory()
    owner = _client(owner_of(club))
    r = owner.post(f"/clubs/{club.slug}/invite/", {"username": carol.user.username}, follow=True)
    assert "invited" in _text(r.content.decode())
    assert not club.memberships.filter(user=carol.user).exists()
    r = owner.post(f"/clubs/{club.slug}/invite/", {"username": "nobody"}, follow=True)
    assert "No person with that user name." in _text(r.content.decode())


def test_edit_page_organisers_only():
    club = ClubFactory(name="Before")
    member = MembershipFactory(club=club).user
    assert _client(member).get(f"/clubs/{club.slug}/edit/").status_code == 403
    owner = _client(owner_of(club))
    _page(owner, f"/clubs/{club.slug}/edit/")
    r = owner.post(f"/clubs/{club.slug}/edit/", {"name": "After", "slug": "after", "city": "",
                                                 "visibility": "members"})  # fmt: skip
    assert r.status_code == 302 and r["Location"] == "/clubs/after/"
    r = owner.post("/clubs/after/edit/", {"name": "After", "slug": "new", "visibility": "public"})
    assert r.status_code == 200 and "That address is taken." in r.content.decode()


def test_a_members_only_club_hides_its_members_from_outsiders():
    club = ClubFactory(name="Inner Circle", city="Zlín", visibility=Visibility.MEMBERS)
    bob = MembershipFactory(club=club, user=UserFactory(username="bobthemember"))
    outsider = _text(_page(_client(UserFactory()), f"/clubs/{club.slug}/"))
    assert "Inner Circle" in outsider and "Zlín" in outsider and "Ask to join" in outsider
    assert "bobthemember" not in outsider and owner_of(club).username not in outsider
    assert "club-organisers" not in _page(_client(UserFactory()), f"/clubs/{club.slug}/")
    assert "bobthemember" not in _text(_page(_client(), f"/clubs/{club.slug}/"))
    inside = _text(_page(_client(bob.user), f"/clubs/{club.slug}/"))
    assert "bobthemember" in inside


def test_a_club_page_in_czech():
    club = ClubFactory(name="Karavana")
    html = _page(_client(), f"/clubs/{club.slug}/", **CZECH)
    assert '<html lang="cs">' in html and "Karavana" in html
    assert "Přihlásit se" in html  # the header, in Czech
