"""A club's events: created for the club by its owner or an organiser (who all manage them,
core.permissions), members-only entries, the club's guests (kept, offered again, linked to
an account), and rated clubs (staff mark a club rated; its organisers then run rated
over-the-board events).

Tournaments asks these through clubs.hooks (settings.TOURNAMENT_CLUB_HOOKS): it never
imports clubs. Refusals are returned as messages for tournaments to raise, so each way in
refuses with its own status (403 for one's own entry, 400 for an organiser's).
"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext

from clubs.models import Club, ClubEvent, ClubGuest, Membership, MembershipStatus, Role
from core import permissions
from games.models import Player
from games.models.players import PlayerKind, fold_name

ORGANISER_ROLES = (Role.OWNER, Role.ORGANISER)


def _signed_in(user) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False))


def organises(user, club: Club) -> bool:
    """The user is an active owner or organiser of the club."""
    if not _signed_in(user):
        return False
    return Membership.objects.filter(
        club=club, user_id=user.pk, status=MembershipStatus.ACTIVE, role__in=ORGANISER_ROLES
    ).exists()


def is_member(user_id: int | None, club: Club) -> bool:
    """An active member of any role (owner and organisers are members too)."""
    if user_id is None:
        return False
    return Membership.objects.filter(
        club=club, user_id=user_id, status=MembershipStatus.ACTIVE
    ).exists()


def organised_clubs(user) -> list[Club]:
    """The clubs whose events the user may create: those she owns or organises."""
    if not _signed_in(user):
        return []
    return list(
        Club.objects.filter(
            memberships__user_id=user.pk, memberships__status=MembershipStatus.ACTIVE,
            memberships__role__in=ORGANISER_ROLES,
        ).order_by("name", "pk")
    )  # fmt: skip


def club_for_event(user, slug: str) -> Club:
    """The club a new event is created for: a 400 for an unknown slug, a 403 for anyone but
    its owner and organisers (nothing is created either way)."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise ValidationError(
            {"club": gettext("No club has the address %(slug)s.") % {"slug": slug}}
        )
    if not organises(user, club):
        raise PermissionDenied(
            gettext("Only the owner and organisers of %(club)s add events to it.")
            % {"club": club.name}
        )
    return club


def attach(tournament, club: Club, *, members_only: bool = False) -> ClubEvent:
    """The tournament becomes the club's event (called in its creation's transaction)."""
    return ClubEvent.objects.create(tournament=tournament, club=club, members_only=members_only)


def club_event_of(tournament) -> ClubEvent | None:
    """The reverse accessor (a missing row is remembered on the instance)."""
    if tournament is None or tournament.pk is None:
        return None
    try:
        return tournament.club_event
    except ObjectDoesNotExist:
        return None


# ---- rated clubs ----------------------------------------------------------------------
def may_run_rated(user, club: Club) -> bool:
    """Over the board, a club's event is rated only if staff marked the club rated and the
    one running it is the club's owner or organiser (who all manage its events)."""
    return bool(club.rated) and organises(user, club)


# ---- members-only events --------------------------------------------------------------
def entry_refusal(tournament, player: Player) -> str | None:
    """Why `player` may not enter a members-only event of a club (None: he may). Guests are
    asked by guest_refusal instead (they have no account to be a member with)."""
    event = club_event_of(tournament)
    if event is None or not event.members_only:
        return None
    if player.kind == PlayerKind.HUMAN and is_member(player.user_id, event.club):
        return None
    return gettext(
        "%(tournament)s is for members of %(club)s only: %(player)s is not a member "
        "(ask to join the club first)."
    ) % {"tournament": tournament.name, "club": event.club.name, "player": player}


def guest_refusal(tournament, by) -> str | None:
    """In a members-only event the guests are the club's: typed in by its owner and
    organisers (or a holder of change_tournament), not by a co-organiser from outside."""
    event = club_event_of(tournament)
    if event is None or not event.members_only:
        return None
    if organises(by, event.club) or (_signed_in(by) and by.has_perm(permissions.CHANGE_TOURNAMENT)):
        return None
    return gettext(
        "%(tournament)s is for members of %(club)s only: only the club's owner and "
        "organisers type in guests."
    ) % {"tournament": tournament.name, "club": event.club.name}


# ---- the club's guests ----------------------------------------------------------------
def club_guests(club: Club):
    return ClubGuest.objects.filter(club=club, player__kind=PlayerKind.GUEST).select_related(
        "player"
    )


def club_guest(tournament, name: str) -> Player | None:
    """The club's guest called `name` (folded: case and look-alike letters aside), for a
    club's event: the same person typed in again is the same Player."""
    event = club_event_of(tournament)
    if event is None:
        return None
    folded = fold_name(name)
    for kept in club_guests(event.club).order_by("pk"):
        if fold_name(kept.player.display_name) == folded:
            return kept.player
    return None


def keep_guest(tournament, player: Player) -> ClubGuest | None:
    """A guest typed into a club's event is the club's from now on, for any of its games."""
    event = club_event_of(tournament)
    if event is None:
        return None
    with transaction.atomic():
        if player.game:
            Player.objects.filter(pk=player.pk).update(game="")
            player.game = ""
        return ClubGuest.objects.create(club=event.club, player=player)


def guest_names(tournament) -> list[str]:
    """The club's guests not entered yet: offered by the add-guest form."""
    event = club_event_of(tournament)
    if event is None:
        return []
    rows = club_guests(event.club).exclude(player__entries__tournament=tournament)
    return sorted(
        {kept.player.display_name for kept in rows if kept.player.display_name}, key=fold_name
    )


def link_refusal(entry, player: Player, by) -> str | None:
    """Linking a club's guest to an account moves all her entries in the club's events:
    the club's owner and organisers decide it; and every members-only event she played
    must take the account."""
    guest = entry.player
    kept = ClubGuest.objects.filter(player=guest).select_related("club").first()
    if kept is not None and not (
        organises(by, kept.club) or (_signed_in(by) and by.has_perm(permissions.CHANGE_TOURNAMENT))
    ):
        return gettext(
            "%(guest)s is a guest of %(club)s: only the club's owner and organisers link her "
            "to an account."
        ) % {"guest": guest, "club": kept.club.name}
    events = ClubEvent.objects.filter(
        tournament__entries__player=guest, members_only=True
    ).select_related("club", "tournament")
    for event in events:
        refusal = entry_refusal(event.tournament, player)
        if refusal:
            return refusal
    return None
