"""Reads of the clubs app: who may do what in a club, the directory, a club's members with
their ratings, and the names of club invitations (settings.INVITATION_TARGETS)."""

from __future__ import annotations

from django.db.models import Count, Q
from django.urls import reverse
from django.utils.translation import gettext

from clubs.models import Club, ClubEvent, Membership, MembershipStatus, Role, Visibility
from games.models import Player
from games.models.matches import game_choices
from ratings.models import Rating, System
from tournaments.models import TournamentStatus

MANAGERS = (Role.OWNER, Role.ORGANISER)
MAX_QUERY = 80  # a search term longer than any club's name or city finds nothing anyway


def membership_of(user, club: Club) -> Membership | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(club=club, user=user).first()


def _active(user, club: Club):
    if not getattr(user, "is_authenticated", False):
        return Membership.objects.none()
    return Membership.objects.filter(club=club, user=user, status=MembershipStatus.ACTIVE)


def is_member(user, club: Club) -> bool:
    return _active(user, club).exists()


def is_owner(user, club: Club) -> bool:
    return _active(user, club).filter(role=Role.OWNER).exists()


def may_manage(user, club: Club) -> bool:
    """The owner and the organisers (active), and holders of clubs.change_club."""
    if not getattr(user, "is_authenticated", False):
        return False
    return _active(user, club).filter(role__in=MANAGERS).exists() or user.has_perm(
        "clubs.change_club"
    )


def shows_inside(user, club: Club) -> bool:
    """Whether the reader sees a club's members and events: anyone for a public club,
    members (and those who manage it) for a members-only one."""
    return club.visibility == Visibility.PUBLIC or is_member(user, club) or may_manage(user, club)


def visible_clubs(user):
    """The clubs listed to the reader: public ones, and the members-only clubs she is in."""
    clubs = Club.objects.all()
    if getattr(user, "is_authenticated", False):
        mine = Membership.objects.filter(user=user, status=MembershipStatus.ACTIVE)
        return clubs.filter(Q(visibility=Visibility.PUBLIC) | Q(pk__in=mine.values("club_id")))
    return clubs.filter(visibility=Visibility.PUBLIC)


def directory(user, *, query: str = "", city: str = "") -> list[dict]:
    """The directory's rows: each club with its active members' count, the games played in
    its events and its next event (open for entries, the earliest planned first)."""
    clubs = visible_clubs(user)
    query, city = str(query or "").strip()[:MAX_QUERY], str(city or "").strip()[:MAX_QUERY]
    if query:
        clubs = clubs.filter(name__icontains=query)
    if city:
        clubs = clubs.filter(city__icontains=city)
    clubs = list(clubs[:200])
    ids = [c.pk for c in clubs]
    labels = dict(game_choices())
    games: dict[int, set[str]] = {}
    for club_id, game in ClubEvent.objects.filter(club_id__in=ids).values_list(
        "club_id", "tournament__game"
    ):
        games.setdefault(club_id, set()).add(game)
    upcoming = (
        ClubEvent.objects.filter(club_id__in=ids, tournament__status=TournamentStatus.REGISTRATION)
        .select_related("tournament")
        .order_by("tournament__starts_at", "tournament_id")
    )
    next_event: dict[int, object] = {}
    for event in upcoming:
        next_event.setdefault(event.club_id, event.tournament)
    counts = dict(
        Membership.objects.filter(club_id__in=ids, status=MembershipStatus.ACTIVE)
        .values("club_id")
        .annotate(n=Count("pk"))
        .values_list("club_id", "n")
    )
    return [
        {
            "club": c,
            "members": counts.get(c.pk, 0),
            "next_event": next_event.get(c.pk),
            "games": sorted(labels.get(g, g) for g in games.get(c.pk, ())),
        }  # fmt: skip
        for c in clubs
    ]


def game_labels(club: Club) -> list[str]:
    labels = dict(game_choices())
    played = set(club.events.values_list("tournament__game", flat=True))
    return sorted(labels.get(g, g) for g in played)


def members(club: Club) -> list[Membership]:
    """Active members, owner and organisers first, each with ``player`` and ``ratings``
    ([{"game", "label", "rating", "games"}] from the site's default Elo pools)."""
    order = {Role.OWNER: 0, Role.ORGANISER: 1, Role.MEMBER: 2}
    rows = list(club.memberships.filter(status=MembershipStatus.ACTIVE).select_related("user"))
    rows.sort(key=lambda m: (order.get(m.role, 3), m.user.username.lower()))
    players = {p.user_id: p for p in Player.objects.filter(user_id__in=[m.user_id for m in rows])}
    labels = dict(game_choices())
    ratings: dict[int, list[dict]] = {}
    found = (
        Rating.objects.filter(player__in=players.values(), system=System.ELO, pool__is_default=True)
        .select_related("pool")
        .order_by("pool__game")
    )
    for r in found:
        ratings.setdefault(r.player_id, []).append(
            {
                "game": r.pool.game,
                "label": labels.get(r.pool.game, r.pool.game),
                "rating": round(r.value),
                "games": r.games,
            }  # fmt: skip
        )
    for m in rows:
        m.player = players.get(m.user_id)
        m.ratings = ratings.get(m.player.pk, []) if m.player else []
    return rows


def organisers(club: Club) -> list[Membership]:
    return [m for m in members(club) if m.role in MANAGERS]


def requests(club: Club) -> list[Membership]:
    """Requests to join, oldest first."""
    return list(
        club.memberships.filter(status=MembershipStatus.REQUESTED)
        .select_related("user")
        .order_by("created_at", "pk")
    )


def my_clubs(user) -> list[Membership]:
    if not getattr(user, "is_authenticated", False):
        return []
    return list(Membership.objects.filter(user=user).select_related("club").order_by("club__name"))


def invitation_targets(keys: list[tuple[str, int]]) -> dict[tuple[str, int], dict]:
    """settings.INVITATION_TARGETS (one of its hooks): the clubs invitations to join name."""
    from clubs.services.membership import INVITATION_TARGET

    ids = {pk for kind, pk in keys if kind == INVITATION_TARGET}
    if not ids:
        return {}
    return {
        (INVITATION_TARGET, pk): {
            "name": gettext("membership of the club %(name)s") % {"name": name},
            "url": reverse("club-detail", args=[slug]),
        }
        for pk, name, slug in Club.objects.filter(pk__in=ids).values_list("pk", "name", "slug")
    }
