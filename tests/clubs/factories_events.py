"""Clubs and their members for the club-events tests (the events part's own factories;
tests/clubs/factories.py is the membership part's)."""

import factory
from django.utils import timezone

from clubs.models import Club, Membership, MembershipStatus, Role
from tests.games.factories import UserFactory


class EventClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    city = "Brno"


def member(club: Club, user=None, *, role: str = Role.MEMBER, status=MembershipStatus.ACTIVE):
    """`user` (a new one by default) in `club` with `role`; returns the user."""
    user = user or UserFactory()
    Membership.objects.create(
        club=club, user=user, role=role, status=status,
        joined_at=timezone.now() if status == MembershipStatus.ACTIVE else None,
    )  # fmt: skip
    return user


def organiser_of(club: Club, user=None):
    return member(club, user, role=Role.ORGANISER)


def owner_of(club: Club, user=None):
    return member(club, user, role=Role.OWNER)
