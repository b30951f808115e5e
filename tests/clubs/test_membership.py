"""clubs.services.membership: founding and editing, asking and accepting, invitations (games'
Invitation, accepted on /invitations/), leaving, removal, roles, the hand-over; each refusal
changes nothing."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client, override_settings

from clubs import selectors
from clubs.models import Club, Membership, MembershipStatus, Role, Visibility
from clubs.services import membership as services
from core.errors import validation_code
from games import services as game_services
from games.models import Invitation
from games.selectors import with_targets
from tests.clubs.factories import ClubFactory, MembershipFactory, owner_of
from tests.games.factories import HumanPlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def _snapshot(club):
    club.refresh_from_db()
    rows = sorted(club.memberships.values_list("user_id", "role", "status"))
    return (club.name, club.slug, club.city, club.visibility, club.logo_url, tuple(rows))


# ---- founding and editing ------------------------------------------------------------------
def test_founder_owns_the_club_and_the_slug_comes_from_the_name():
    alice = UserFactory()
    club = services.found_club(by=alice, name="Klub Hradec Králové", city=" Hradec  Králové ",
                               languages=["en", "cs", "cs"])  # fmt: skip
    assert club.slug == "klub-hradec-kralove"
    assert club.city == "Hradec Králové" and club.languages == ["en", "cs"]
    m = Membership.objects.get(club=club)
    assert (m.user, m.role, m.status) == (alice, Role.OWNER, MembershipStatus.ACTIVE)
    assert m.joined_at is not None
    again = services.found_club(by=UserFactory(), name="Klub Hradec Kralove")
    assert again.slug == "klub-hradec-kralove-2"
    assert services.found_club(by=alice, name="New").slug == "new-2"  # /clubs/new/ is a page


@pytest.mark.parametrize(
    "fields, key",
    [
        ({"name": "  "}, "name"),
        ({"name": "A", "logo_url": "http://example.com/logo.png"}, "logo_url"),
        ({"name": "A", "logo_url": "javascript:alert(1)"}, "logo_url"),
        ({"name": "A", "languages": ["de"]}, "languages"),
        ({"name": "A", "visibility": "secret"}, "visibility"),
        ({"name": "A\u202eB"}, "name"),
        ({"name": "A", "slug": "Bad Slug"}, "slug"),
        ({"name": "A", "rated": True}, "rated"),
    ],
)
def test_bad_club_fields_are_refused_and_nothing_is_made(fields, key):
    with pytest.raises(ValidationError) as caught:
        services.found_club(by=UserFactory(), **fields)
    assert key in caught.value.message_dict
    assert not Club.objects.exists()


def test_owner_and_organisers_edit_members_and_outsiders_do_not():
    club = ClubFactory(name="Old")
    organiser = MembershipFactory(club=club, role=Role.ORGANISER).user
    member = MembershipFactory(club=club).user
    services.update_club(club=club, by=organiser, name="New name", slug="new-name",
                         logo_url="https://example.com/l.png", visibility=Visibility.MEMBERS)  # fmt: skip
    club.refresh_from_db()
    assert (club.name, club.slug, club.visibility) == ("New name", "new-name", "members")
    before = _snapshot(club)
    for who in (member, UserFactory()):
        with pytest.raises(PermissionDenied):
            services.update_club(club=club, by=who, name="Mine")
    other = ClubFactory(slug="taken")
    with pytest.raises(ValidationError) as caught:
        services.update_club(club=club, by=owner_of(club), slug=other.slug)
    assert validation_code(caught.value) == "slug_taken"
    assert _snapshot(club) == before


# ---- asking and accepting ------------------------------------------------------------------
def test_ask_then_accept_makes_a_member_and_asking_twice_is_a_409():
    club = ClubFactory()
    bob = UserFactory()
    asked = services.ask_to_join(club=club, user=bob)
    assert asked.status == MembershipStatus.REQUESTED and not selectors.is_member(bob, club)
    with pytest.raises(services.ClubConflict) as caught:
        services.ask_to_join(club=club, user=bob)
    assert caught.value.status_code == 409 and caught.value.code == "already_asked"
    services.accept_request(membership=asked, by=owner_of(club))
    assert selectors.is_member(bob, club)
    with pytest.raises(services.ClubConflict) as caught:
        services.ask_to_join(club=club, user=bob)
    assert caught.value.code == "already_member"
    assert club.memberships.filter(user=bob).count() == 1


def test_only_owner_and_organisers_accept_or_decline():
    club = ClubFactory()
    asked = services.ask_to_join(club=club, user=UserFactory())
    member = MembershipFactory(club=club).user
    for who in (member, UserFactory(), asked.user):
        with pytest.raises(PermissionDenied):
            services.accept_request(membership=asked, by=who)
    asked.refresh_from_db()
    assert asked.status == MembershipStatus.REQUESTED
    organiser = MembershipFactory(club=club, role=Role.ORGANISER).user
    services.decline_request(membership=asked, by=organiser)
    assert not Membership.objects.filter(pk=asked.pk).exists()
    services.ask_to_join(club=club, user=asked.user)  # she may ask again


def test_an_organiser_of_another_club_may_not_accept_here():
    club, other = ClubFactory(), ClubFactory()
    asked = services.ask_to_join(club=club, user=UserFactory())
    with pytest.raises(PermissionDenied):
        services.accept_request(membership=asked, by=owner_of(other))


# ---- invitations ---------------------------------------------------------------------------
def test_an_invitation_makes_a_member_only_once_she_accepts_and_names_the_club(
    django_capture_on_commit_callbacks,
):
    club = ClubFactory(name="Caravan Brno")
    carol = HumanPlayerFactory()
    made = services.invite(club=club, by=owner_of(club), username=carol.user.username.upper())
    assert isinstance(made, Invitation)
    assert (made.target_kind, made.target_id, made.player) == ("club", club.pk, carol)
    assert not club.memberships.filter(user=carol.user).exists()  # consent first
    [named] = with_targets([made])
    assert named.target == {"name": "membership of the club Caravan Brno",
                            "url": f"/clubs/{club.slug}/"}  # fmt: skip
    client = Client()
    client.force_login(carol.user)
    page = client.get("/invitations/").content.decode()
    assert f'<a href="/clubs/{club.slug}/">membership of the club Caravan Brno</a>' in page
    with django_capture_on_commit_callbacks(execute=True):  # the signal goes after the commit
        game_services.accept_invitation(invitation_id=made.pk, user=carol.user)
    assert selectors.is_member(carol.user, club)
    # The signal again (a crash between commit and send): still one membership.
    services.complete_invitation(club_id=club.pk, player_id=carol.pk)
    assert club.memberships.filter(user=carol.user).count() == 1


def test_a_declined_invitation_makes_no_member(django_capture_on_commit_callbacks):
    club = ClubFactory()
    carol = HumanPlayerFactory()
    made = services.invite(club=club, by=owner_of(club), username=carol.user.username)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.decline_invitation(invitation_id=made.pk, user=carol.user)
    assert not club.memberships.filter(user=carol.user).exists()


def test_inviting_one_who_asked_accepts_her_and_a_member_or_a_stranger_is_refused():
    club = ClubFactory()
    owner = owner_of(club)
    asked = services.ask_to_join(club=club, user=UserFactory())
    made = services.invite(club=club, by=owner, username=asked.user.username)
    assert isinstance(made, Membership) and made.status == MembershipStatus.ACTIVE
    with pytest.raises(services.ClubConflict):
        services.invite(club=club, by=owner, username=asked.user.username)
    with pytest.raises(ValidationError):
        services.invite(club=club, by=owner, username="nobody-here")
    with pytest.raises(PermissionDenied):
        services.invite(club=club, by=asked.user, username=UserFactory().username)
    assert not Invitation.objects.exists()


def test_invitation_targets_combine_every_hook_in_the_setting():
    club = ClubFactory(name="Both")
    made = services.invite(club=club, by=owner_of(club), username=UserFactory().username)
    with override_settings(INVITATION_TARGETS="clubs.selectors.invitation_targets"):
        assert with_targets([made])[0].target["name"] == "membership of the club Both"
    with override_settings(INVITATION_TARGETS=["tournaments.selectors.invitation_targets"]):
        assert with_targets([made])[0].target is None  # tournaments knows no clubs
    with override_settings(INVITATION_TARGETS=[]):
        assert with_targets([made])[0].target is None


# ---- leaving, removal, roles, hand-over ------------------------------------------------------
def test_a_member_leaves_and_the_last_owner_cannot():
    club = ClubFactory()
    bob = MembershipFactory(club=club).user
    services.leave(club=club, user=bob)
    assert not club.memberships.filter(user=bob).exists()
    owner = owner_of(club)
    before = _snapshot(club)
    with pytest.raises(services.ClubConflict) as caught:
        services.leave(club=club, user=owner)
    assert caught.value.code == "last_owner"
    with pytest.raises(services.ClubConflict):
        services.leave(club=club, user=UserFactory())  # not a member
    assert _snapshot(club) == before


def test_removal_organisers_remove_members_only_the_owner_removes_organisers_nobody_the_owner():
    club = ClubFactory()
    owner = owner_of(club)
    organiser = MembershipFactory(club=club, role=Role.ORGANISER)
    other_organiser = MembershipFactory(club=club, role=Role.ORGANISER)
    member = MembershipFactory(club=club)
    owner_row = club.memberships.get(user=owner)
    before = _snapshot(club)
    with pytest.raises(PermissionDenied):
        services.remove_member(membership=owner_row, by=organiser.user)
    with pytest.raises(PermissionDenied):
        services.remove_member(membership=other_organiser, by=organiser.user)
    with pytest.raises(PermissionDenied):
        services.remove_member(membership=organiser, by=member.user)
    assert _snapshot(club) == before
    services.remove_member(membership=member, by=organiser.user)
    services.remove_member(membership=other_organiser, by=owner)
    assert set(club.memberships.values_list("pk", flat=True)) == {owner_row.pk, organiser.pk}


def test_roles_are_the_owners_and_a_bad_role_is_refused():
    club = ClubFactory()
    owner = owner_of(club)
    member = MembershipFactory(club=club)
    organiser = MembershipFactory(club=club, role=Role.ORGANISER)
    with pytest.raises(PermissionDenied):
        services.set_role(membership=member, by=organiser.user, role=Role.ORGANISER)
    with pytest.raises(PermissionDenied):
        services.set_role(membership=organiser, by=member.user, role=Role.MEMBER)
    for bad in ("owner", "admin", ""):
        with pytest.raises(ValidationError):
            services.set_role(membership=member, by=owner, role=bad)
    member.refresh_from_db()
    assert member.role == Role.MEMBER
    services.set_role(membership=member, by=owner, role=Role.ORGANISER)
    assert selectors.may_manage(member.user, club)
    services.set_role(membership=member, by=owner, role=Role.MEMBER)
    assert not selectors.may_manage(member.user, club)
    asked = services.ask_to_join(club=club, user=UserFactory())
    with pytest.raises(services.ClubConflict):
        services.set_role(membership=asked, by=owner, role=Role.ORGANISER)  # not in yet


def test_hand_over_the_new_owner_owns_and_the_old_one_organises_then_may_leave():
    club = ClubFactory()
    owner = owner_of(club)
    bob = MembershipFactory(club=club)
    with pytest.raises(PermissionDenied):
        services.hand_over(club=club, by=bob.user, to=bob)
    asked = services.ask_to_join(club=club, user=UserFactory())
    with pytest.raises(services.ClubConflict):
        services.hand_over(club=club, by=owner, to=asked)
    services.hand_over(club=club, by=owner, to=bob)
    roles = dict(club.memberships.filter(status="active").values_list("user_id", "role"))
    assert roles == {owner.pk: Role.ORGANISER, bob.user_id: Role.OWNER}
    services.leave(club=club, user=owner)
    assert selectors.is_owner(bob.user, club)


def test_members_with_their_ratings_per_game():
    from ratings.models import Rating, RatingPool

    club = ClubFactory()
    bob = MembershipFactory(club=club)
    pool = RatingPool.objects.filter(
        game="yspahan", is_default=True
    ).first() or RatingPool.objects.create(game="yspahan", name="Yspahan", is_default=True)
    Rating.objects.create(pool=pool, player=bob.user.player, system="elo", value=1612.4, games=7)
    rows = {m.user_id: m for m in selectors.members(club)}
    assert rows[bob.user_id].ratings == [{"game": "yspahan", "label": "Yspahan", "rating": 1612,
                                          "games": 7}]  # fmt: skip
    assert rows[owner_of(club).pk].ratings == []
    assert selectors.members(club)[0].role == Role.OWNER  # the owner first
