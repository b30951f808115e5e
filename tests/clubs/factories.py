"""Clubs and memberships as rows (ClubFactory gives the club an owner unless owner__none=True);
the services make them in the tests that are about founding and joining."""

import factory
from django.utils import timezone

from clubs.models import Club, Membership, MembershipStatus, Role, Visibility
from tests.games.factories import HumanPlayerFactory


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    city = "Brno"
    visibility = Visibility.PUBLIC

    @factory.post_generation
    def owner(club, create, extracted, **kwargs):
        """owner=<user>: that user owns it; owner__none=True: nobody; left out: a new person."""
        if not create or kwargs.get("none"):
            return
        user = extracted if extracted is not None else HumanPlayerFactory().user
        MembershipFactory(club=club, user=user, role=Role.OWNER)


class MembershipFactory(factory.django.DjangoModelFactory):
    """An active member (status="requested" for one who has asked)."""

    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    user = factory.LazyFunction(lambda: HumanPlayerFactory().user)
    role = Role.MEMBER
    status = MembershipStatus.ACTIVE
    joined_at = factory.LazyAttribute(
        lambda m: timezone.now() if m.status == MembershipStatus.ACTIVE else None
    )


def owner_of(club: Club):
    return club.memberships.get(role=Role.OWNER).user
