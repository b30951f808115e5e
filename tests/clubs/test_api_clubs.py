"""The clubs API: every verb, and the refusals (4xx) that change nothing: joining twice, a
member changing roles, accepting as a non-organiser, a bad role, unknown fields, a
members-only club's members to outsiders."""

import pytest

from clubs.models import Club, Membership, MembershipStatus, Role, Visibility
from games.models import Invitation
from tests.clubs.factories import ClubFactory, MembershipFactory, owner_of
from tests.games.factories import HumanPlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def _as(api_client, user):
    api_client.force_authenticate(user)
    return api_client


def _state():
    return (
        sorted(Club.objects.values_list("slug", "name", "city", "visibility", "rated")),
        sorted(Membership.objects.values_list("club_id", "user_id", "role", "status")),
    )


def test_list_and_search_show_public_clubs_and_ones_own_members_only_clubs(api_client):
    ClubFactory(name="Brno Nomads", city="Brno")
    ClubFactory(name="Praha Caravan", city="Praha")
    hidden = ClubFactory(name="Secret Brno", city="Brno", visibility=Visibility.MEMBERS)
    body = api_client.get("/api/clubs/").json()
    assert [c["name"] for c in body["results"]] == ["Brno Nomads", "Praha Caravan"]
    assert body["results"][0]["members"] == 1 and body["results"][0]["url"].startswith("/clubs/")
    found = api_client.get("/api/clubs/", {"city": "brno"}).json()["results"]
    assert [c["name"] for c in found] == ["Brno Nomads"]
    assert [
        c["name"] for c in api_client.get("/api/clubs/", {"q": "caravan"}).json()["results"]
    ] == ["Praha Caravan"]
    _as(api_client, owner_of(hidden))
    found = api_client.get("/api/clubs/", {"city": "brno"}).json()["results"]
    assert [c["name"] for c in found] == ["Brno Nomads", "Secret Brno"]


def test_post_founds_a_club_owned_by_the_caller(api_client):
    alice = UserFactory()
    r = _as(api_client, alice).post("/api/clubs/", {"name": "Silk Road Brno", "city": "Brno",
                                                    "languages": ["cs"]}, format="json")  # fmt: skip
    assert r.status_code == 201, r.content
    assert r.json()["slug"] == "silk-road-brno" and r.json()["members"] == 1
    assert r.json()["rated"] is False
    m = Membership.objects.get(club__slug="silk-road-brno")
    assert (m.user, m.role, m.status) == (alice, Role.OWNER, MembershipStatus.ACTIVE)


@pytest.mark.parametrize(
    "body, field",
    [
        ({"name": "X", "rated": True}, "rated"),  # staff's, in the admin only
        ({"name": "X", "owner": "me"}, "owner"),
        ({"name": "X", "logo_url": "http://example.com/a.png"}, "logo_url"),
        ({"name": "X", "languages": ["xx"]}, "languages.0"),
        ({"city": "Brno"}, "name"),
    ],
)
def test_post_refuses_unknown_or_bad_fields_and_makes_nothing(api_client, body, field):
    r = _as(api_client, UserFactory()).post("/api/clubs/", body, format="json")
    assert r.status_code == 400
    assert field in r.json()["fields"]
    assert not Club.objects.exists()


def test_anonymous_may_read_but_not_found(api_client):
    club = ClubFactory()
    assert api_client.get(f"/api/clubs/{club.slug}/").json()["name"] == club.name
    assert api_client.post("/api/clubs/", {"name": "X"}, format="json").status_code in (401, 403)
    assert Club.objects.count() == 1
    assert api_client.get("/api/clubs/no-such-club/").status_code == 404


def test_patch_by_an_organiser_and_refusals_change_nothing(api_client):
    club = ClubFactory(name="Old", city="Brno")
    organiser = MembershipFactory(club=club, role=Role.ORGANISER).user
    member = MembershipFactory(club=club).user
    before = _state()
    r = _as(api_client, member).patch(f"/api/clubs/{club.slug}/", {"name": "Mine"}, format="json")
    assert r.status_code == 403
    _as(api_client, organiser)
    r = api_client.patch(f"/api/clubs/{club.slug}/", {"rated": True}, format="json")
    assert r.status_code == 400 and r.json()["fields"]["rated"]
    r = api_client.patch(f"/api/clubs/{club.slug}/", {"name": "New", "bogus": 1}, format="json")
    assert r.status_code == 400
    assert _state() == before
    r = api_client.patch(f"/api/clubs/{club.slug}/", {"name": "New", "slug": "new-one",
                                                      "visibility": "members"}, format="json")  # fmt: skip
    assert r.status_code == 200, r.content
    assert (r.json()["name"], r.json()["slug"], r.json()["visibility"]) == ("New", "new-one",
                                                                          "members")  # fmt: skip


def test_join_then_join_again_is_a_409_and_changes_nothing(api_client):
    club = ClubFactory()
    bob = UserFactory()
    r = _as(api_client, bob).post(f"/api/clubs/{club.slug}/join/")
    assert r.status_code == 201 and r.json()["status"] == "requested"
    before = _state()
    r = api_client.post(f"/api/clubs/{club.slug}/join/")
    assert r.status_code == 409 and r.json()["code"] == "already_asked"
    assert _state() == before
    _as(api_client, owner_of(club))
    assert api_client.post(f"/api/clubs/{club.slug}/join/").json()["code"] == "already_member"
    assert _state() == before


def test_accept_by_the_owner_and_by_a_non_organiser(api_client):
    club = ClubFactory()
    asked = Membership.objects.create(club=club, user=UserFactory())
    member = MembershipFactory(club=club).user
    other_owner = owner_of(ClubFactory())
    before = _state()
    for who in (member, asked.user, other_owner):
        r = _as(api_client, who).post(f"/api/clubs/{club.slug}/members/{asked.pk}/accept/")
        assert r.status_code == 403, who
    assert _state() == before
    r = _as(api_client, owner_of(club)).post(f"/api/clubs/{club.slug}/members/{asked.pk}/accept/")
    assert r.status_code == 200 and r.json()["status"] == "active"
    again = api_client.post(f"/api/clubs/{club.slug}/members/{asked.pk}/accept/")
    assert again.status_code == 409
    # A membership of another club is not found through this one.
    elsewhere = Membership.objects.create(club=ClubFactory(), user=UserFactory())
    assert (
        api_client.post(f"/api/clubs/{club.slug}/members/{elsewhere.pk}/accept/").status_code == 404
    )


def test_roles_owner_only_a_bad_role_is_a_400(api_client):
    club = ClubFactory()
    member = MembershipFactory(club=club)
    organiser = MembershipFactory(club=club, role=Role.ORGANISER)
    url = f"/api/clubs/{club.slug}/members/{member.pk}/role/"
    before = _state()
    assert (
        _as(api_client, member.user).post(url, {"role": "organiser"}, format="json").status_code
        == 403
    )
    assert (
        _as(api_client, organiser.user).post(url, {"role": "organiser"}, format="json").status_code
        == 403
    )
    _as(api_client, owner_of(club))
    for bad in ({"role": "owner"}, {"role": "boss"}, {}, {"role": "member", "extra": 1}):
        assert api_client.post(url, bad, format="json").status_code == 400, bad
    assert _state() == before
    r = api_client.post(url, {"role": "organiser"}, format="json")
    assert r.status_code == 200 and r.json()["role"] == "organiser"
    member.refresh_from_db()
    assert member.role == Role.ORGANISER


def test_members_list_members_only_clubs_to_members_only(api_client):
    club = ClubFactory(visibility=Visibility.MEMBERS)
    bob = MembershipFactory(club=club)
    asked = Membership.objects.create(club=club, user=UserFactory())
    url = f"/api/clubs/{club.slug}/members/"
    assert api_client.get(url).status_code == 403
    assert _as(api_client, asked.user).get(url).status_code == 403  # asked, not in yet
    rows = _as(api_client, bob.user).get(url).json()["results"]
    assert {r["user"] for r in rows} == {owner_of(club).username, bob.user.username}
    rows = _as(api_client, owner_of(club)).get(url).json()["results"]
    assert {r["status"] for r in rows} == {"active", "requested"}  # the owner sees requests
    public = ClubFactory()
    api_client.force_authenticate(None)
    assert len(api_client.get(f"/api/clubs/{public.slug}/members/").json()["results"]) == 1


def test_leave_and_the_last_owner_is_refused(api_client):
    club = ClubFactory()
    bob = MembershipFactory(club=club)
    assert (
        _as(api_client, bob.user).delete(f"/api/clubs/{club.slug}/members/me/").status_code == 204
    )
    assert not Membership.objects.filter(pk=bob.pk).exists()
    assert api_client.delete(f"/api/clubs/{club.slug}/members/me/").status_code == 409
    before = _state()
    r = _as(api_client, owner_of(club)).delete(f"/api/clubs/{club.slug}/members/me/")
    assert r.status_code == 409 and r.json()["code"] == "last_owner"
    assert _state() == before


def test_invite_makes_an_invitation_not_a_member(api_client):
    club = ClubFactory()
    carol = HumanPlayerFactory()
    url = f"/api/clubs/{club.slug}/invitations/"
    assert _as(api_client, carol.user).post(url, {"username": carol.user.username},
                                            format="json").status_code == 403  # fmt: skip
    r = _as(api_client, owner_of(club)).post(url, {"username": carol.user.username}, format="json")
    assert r.status_code == 202 and r.json()["membership"] is None
    invitation = Invitation.objects.get(pk=r.json()["invitation"])
    assert (invitation.target_kind, invitation.target_id) == ("club", club.pk)
    assert not club.memberships.filter(user=carol.user).exists()
    assert api_client.post(url, {"username": "nobody"}, format="json").status_code == 400


def test_the_schema_documents_the_club_paths(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    for path in ("/api/clubs/", "/api/clubs/{slug}/", "/api/clubs/{slug}/join/",
                 "/api/clubs/{slug}/members/", "/api/clubs/{slug}/members/me/",
                 "/api/clubs/{slug}/members/{membership_id}/accept/",
                 "/api/clubs/{slug}/members/{membership_id}/role/"):  # fmt: skip
        assert path in paths, path
    assert "delete" in paths["/api/clubs/{slug}/members/me/"]
    assert set(paths["/api/clubs/{slug}/"]) >= {"get", "patch"}
