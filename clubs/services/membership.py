"""A club and its people: founding and editing a club, asking to join and being accepted,
invitations (games' Invitation, target_kind "club"), leaving, removal, roles and the hand-over
of ownership.

Consent both ways: nobody becomes a member without asking (a request an owner or organiser
accepts) or accepting (an invitation she answers on /invitations/; clubs.receivers completes
it). Rights: the owner and the organisers manage the club (edit, accept, invite, remove
members); the owner alone sets roles and hands the club over. Each refusal changes nothing:
PermissionDenied (403) for a caller who may not, ClubConflict (409) for a state that forbids
it, ValidationError (400) for bad input.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import URLValidator
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext

from clubs import selectors
from clubs.models import Club, Membership, MembershipStatus, Role, Visibility
from core import names
from core.errors import DomainError
from games import services as game_services
from games.models import Invitation, Player, PlayerKind

INVITATION_TARGET = "club"  # Invitation.target_kind of an invitation to join a club

MAX_NAME = 120
MAX_CITY = 80
MAX_DESCRIPTION = 5000
MAX_LOGO_URL = 200
MAX_SLUG = 60
# Club addresses that are pages of their own under /clubs/.
RESERVED_SLUGS = frozenset({"new"})
SLUG_SHAPE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
EDITABLE = ("name", "slug", "city", "description", "logo_url", "languages", "visibility")


class ClubConflict(DomainError):
    """The club's state forbids it (asked twice, already a member, the last owner...)."""

    status_code = 409
    code = "club_conflict"


# ---- checks ------------------------------------------------------------------------------
def _require_user(user) -> None:
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied(gettext("Log in first."))


def _require_manager(user, club: Club) -> None:
    if not selectors.may_manage(user, club):
        raise PermissionDenied(gettext("Only the club's owner or organisers can do that."))


def _require_owner(user, club: Club) -> None:
    if not selectors.is_owner(user, club):
        raise PermissionDenied(gettext("Only the club's owner can do that."))


def refused(field: str, message: str, code: str = "invalid") -> ValidationError:
    """A refusal of one field, with a code (a dict ValidationError keeps no code of its own)."""
    return ValidationError({field: ValidationError(message, code=code)})


def _text(value, field: str, label: str, limit: int, *, multiline: bool = False) -> str:
    value = str(value or "").strip()
    if not multiline:
        value = " ".join(value.split())
    if len(value) > limit:
        raise refused(field, gettext("At most %(n)s characters.") % {"n": limit}, "too_long")
    try:
        names.check_text(value, field_label=label, multiline=multiline)
    except ValidationError as exc:
        raise ValidationError({field: exc}) from None
    return value


def clean_name(value) -> str:
    name = _text(value, "name", gettext("Name"), MAX_NAME)
    if not name:
        raise refused("name", gettext("Give the club's name."), "required")
    return name


def clean_logo_url(value) -> str:
    url = str(value or "").strip()
    if not url:
        return ""
    if len(url) > MAX_LOGO_URL:
        raise refused("logo_url", gettext("At most %(n)s characters.") % {"n": MAX_LOGO_URL},
                      "too_long")  # fmt: skip
    try:
        URLValidator(schemes=["https"])(url)
    except ValidationError:
        raise refused("logo_url", gettext("The logo is an image's https:// address.")) from None
    return url


def clean_languages(value) -> list[str]:
    known = [code for code, _name in settings.LANGUAGES]
    if value in (None, ""):
        return []
    if isinstance(value, (str, dict)) or not isinstance(value, Iterable):
        raise refused("languages", gettext("A list of language codes."))
    codes = [str(v) for v in value]
    unknown = [c for c in codes if c not in known]
    if unknown:
        raise refused("languages",
                      gettext("Unknown language: %(code)s.") % {"code": unknown[0][:20]})  # fmt: skip
    return [c for c in known if c in codes]  # each once, in the site's order


def clean_visibility(value) -> str:
    if value not in Visibility.values:
        raise refused("visibility", gettext("Public or members only."))
    return value


def clean_slug(value, *, club: Club | None = None) -> str:
    slug = str(value or "").strip().lower()
    if not slug or len(slug) > MAX_SLUG or not SLUG_SHAPE.match(slug):
        raise refused("slug", gettext("Lower-case letters, digits and single hyphens, at most "
                                      "%(n)s.") % {"n": MAX_SLUG})  # fmt: skip
    taken = Club.objects.filter(slug=slug).exclude(pk=getattr(club, "pk", None)).exists()
    if slug in RESERVED_SLUGS or taken:
        raise refused("slug", gettext("That address is taken."), "slug_taken")
    return slug


def free_slug(name: str) -> str:
    """The club's address from its name ("Klub Hradec Králové" -> "klub-hradec-kralove"),
    with -2, -3... when taken."""
    base = slugify(name)[: MAX_SLUG - 4].strip("-") or "club"
    taken = set(Club.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    taken |= RESERVED_SLUGS
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    return slug


def _cleaned(fields: dict, *, club: Club | None = None) -> dict:
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise ValidationError({k: ValidationError(gettext("Unknown field."), code="unknown_field")
                               for k in sorted(unknown)})  # fmt: skip
    out = {}
    for key, value in fields.items():
        if key == "name":
            out[key] = clean_name(value)
        elif key == "slug":
            out[key] = clean_slug(value, club=club)
        elif key == "city":
            out[key] = _text(value, "city", gettext("City"), MAX_CITY)
        elif key == "description":
            out[key] = _text(value, "description", gettext("Description"), MAX_DESCRIPTION,
                             multiline=True)  # fmt: skip
        elif key == "logo_url":
            out[key] = clean_logo_url(value)
        elif key == "languages":
            out[key] = clean_languages(value)
        elif key == "visibility":
            out[key] = clean_visibility(value)
    return out


# ---- the club ----------------------------------------------------------------------------
def found_club(*, by, name, **fields) -> Club:
    """A new club; its founder is its owner (an active member at once)."""
    _require_user(by)
    if not fields.get("slug"):
        fields.pop("slug", None)  # from the name
    data = _cleaned({"name": name, **fields})
    with transaction.atomic():
        slug = data.pop("slug", None) or free_slug(data["name"])
        try:
            with transaction.atomic():
                club = Club.objects.create(slug=slug, **data)
        except IntegrityError:  # taken meanwhile
            raise refused("slug", gettext("That address is taken."), "slug_taken") from None
        Membership.objects.create(club=club, user=by, role=Role.OWNER,
                                  status=MembershipStatus.ACTIVE, joined_at=timezone.now())  # fmt: skip
    return club


def update_club(*, club: Club, by, **fields) -> Club:
    """Edit (owner or organisers): name, address, city, description, logo, languages,
    visibility. `rated` is staff's, in the admin only."""
    _require_manager(by, club)
    data = _cleaned(fields, club=club)
    if not data:
        return club
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        for key, value in data.items():
            setattr(locked, key, value)
        try:
            with transaction.atomic():
                locked.save(update_fields=list(data))
        except IntegrityError:
            raise refused("slug", gettext("That address is taken."), "slug_taken") from None
    return locked


# ---- joining -----------------------------------------------------------------------------
def ask_to_join(*, club: Club, user) -> Membership:
    """A request to join, waiting for the owner or an organiser (409 when she already
    asked or is a member)."""
    _require_user(user)
    existing = Membership.objects.filter(club=club, user=user).first()
    if existing is not None:
        raise _already(existing)
    try:
        with transaction.atomic():
            return Membership.objects.create(club=club, user=user)
    except IntegrityError:  # a second click at the same moment
        raise ClubConflict(
            gettext("You have already asked to join."), code="already_asked"
        ) from None


def _already(membership: Membership) -> ClubConflict:
    if membership.status == MembershipStatus.ACTIVE:
        return ClubConflict(gettext("You are already a member."), code="already_member")
    return ClubConflict(gettext("You have already asked to join."), code="already_asked")


def _request(membership: Membership) -> Membership:
    m = Membership.objects.select_for_update().select_related("club", "user").get(pk=membership.pk)
    if m.status != MembershipStatus.REQUESTED:
        raise ClubConflict(gettext("%(user)s is already a member.") % {"user": m.user},
                           code="already_member")  # fmt: skip
    return m


def accept_request(*, membership: Membership, by) -> Membership:
    _require_manager(by, membership.club)
    with transaction.atomic():
        m = _request(membership)
        m.status, m.joined_at = MembershipStatus.ACTIVE, timezone.now()
        m.save(update_fields=["status", "joined_at"])
    return m


def decline_request(*, membership: Membership, by) -> None:
    """The request is removed (she may ask again)."""
    _require_manager(by, membership.club)
    with transaction.atomic():
        _request(membership).delete()


def invite(*, club: Club, by, username) -> Invitation | Membership:
    """Invite a person by user name; she becomes a member when she accepts. One who has
    already asked to join is accepted at once (both sides have said yes)."""
    _require_manager(by, club)
    name = str(username or "").strip()
    user = (
        get_user_model().objects.filter(username__iexact=name, is_active=True).first()
        if name
        else None
    )
    player = Player.objects.filter(user=user, kind=PlayerKind.HUMAN).first() if user else None
    if player is None:
        raise refused("username", gettext("No person with that user name."), "unknown_user")
    existing = Membership.objects.filter(club=club, user=user).first()
    if existing is not None and existing.status == MembershipStatus.ACTIVE:
        raise ClubConflict(gettext("%(user)s is already a member.") % {"user": user},
                           code="already_member")  # fmt: skip
    if existing is not None:
        return accept_request(membership=existing, by=by)
    return game_services.invite_to_entry(player=player, invited_by=by,
                                         target_kind=INVITATION_TARGET, target_id=club.pk)  # fmt: skip


def complete_invitation(*, club_id: int, player_id: int) -> Membership | None:
    """An accepted invitation makes her a member (once, however often the signal comes)."""
    player = Player.objects.filter(pk=player_id).exclude(user=None).first()
    club = Club.objects.filter(pk=club_id).first()
    if player is None or club is None:
        return None
    with transaction.atomic():
        m, _made = Membership.objects.select_for_update().get_or_create(
            club=club, user_id=player.user_id,
            defaults={"status": MembershipStatus.ACTIVE, "joined_at": timezone.now()},
        )  # fmt: skip
        if m.status != MembershipStatus.ACTIVE:  # she had asked as well
            m.status, m.joined_at = MembershipStatus.ACTIVE, timezone.now()
            m.save(update_fields=["status", "joined_at"])
    return m


# ---- leaving and removal -----------------------------------------------------------------
def leave(*, club: Club, user) -> None:
    """A member leaves (or withdraws her request). The last owner hands the club over first."""
    _require_user(user)
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)  # role changes of one club queue
        m = Membership.objects.filter(club=club, user=user).first()
        if m is None:
            raise ClubConflict(gettext("You are not a member."), code="not_member")
        if (
            m.role == Role.OWNER
            and not club.memberships.filter(role=Role.OWNER, status=MembershipStatus.ACTIVE)
            .exclude(pk=m.pk)
            .exists()
        ):
            raise ClubConflict(
                gettext("You own the club: hand it over to another member before you leave."),
                code="last_owner",
            )
        m.delete()


def _member(membership: Membership) -> Membership:
    m = Membership.objects.select_for_update().select_related("user").get(pk=membership.pk)
    if m.status != MembershipStatus.ACTIVE:
        raise ClubConflict(gettext("%(user)s is not a member yet.") % {"user": m.user},
                           code="not_member")  # fmt: skip
    return m


def remove_member(*, membership: Membership, by) -> None:
    """The owner or an organiser removes a member; an organiser only by the owner; the
    owner never (she hands the club over and leaves)."""
    club = membership.club
    _require_manager(by, club)
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        m = _member(membership)
        if m.role == Role.OWNER:
            raise PermissionDenied(gettext("The owner can't be removed."))
        if m.role == Role.ORGANISER and not selectors.is_owner(by, club):
            raise PermissionDenied(gettext("Only the club's owner can remove an organiser."))
        if m.user_id == by.pk:
            raise ClubConflict(gettext("To leave the club, use “Leave”."), code="self")
        m.delete()


def set_role(*, membership: Membership, by, role) -> Membership:
    """The owner makes a member an organiser, or an organiser a member again."""
    club = membership.club
    _require_owner(by, club)
    if role not in (Role.ORGANISER, Role.MEMBER):
        raise refused("role", gettext("A role is “organiser” or “member”."), "invalid_role")
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        m = _member(membership)
        if m.role == Role.OWNER:
            raise ClubConflict(gettext("The owner hands the club over instead."), code="owner")
        if m.role != role:
            m.role = role
            m.save(update_fields=["role"])
    return m


def hand_over(*, club: Club, by, to: Membership) -> Membership:
    """The owner hands the club to an active member, who becomes its owner; she stays, as
    an organiser."""
    _require_owner(by, club)
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        if to.club_id != club.pk:
            raise ValidationError(gettext("Not a member of this club."), code="not_member")
        new = _member(to)
        if new.user_id == by.pk:
            raise ClubConflict(gettext("You already own the club."), code="self")
        old = Membership.objects.select_for_update().get(club=club, user=by)
        old.role = Role.ORGANISER
        old.save(update_fields=["role"])
        new.role = Role.OWNER
        new.save(update_fields=["role"])
    return new
