"""Consent: invitations to a seat in a match or to an entry elsewhere (a tournament).

A match that seats a human other than its creator waits, not started, until
every invited human accepted; a decline or an expiry cancels it."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.models import (
    Invitation,
    InvitationKind,
    InvitationStatus,
    Match,
    MatchStatus,
    Player,
    PlayerKind,
)
from games.services import live
from games.services.matches import MatchError, ready_to_start, start_match
from games.signals import invitation_accepted, invitation_answered, invitation_sent


class InvitationNotFound(MatchError):
    status_code = 404
    code = "not_found"


class NotYourInvitation(MatchError):
    status_code = 403
    code = "not_your_invitation"


class InvitationClosed(MatchError):
    status_code = 409
    code = "invitation_closed"


def invite_to_match(*, match: Match, players: list[Player], invited_by) -> list[Invitation]:
    """Invitations for `players` to their seats in `match`; call in create_match's transaction."""
    unique = {p.pk: p for p in players}.values()
    made = Invitation.objects.bulk_create(
        Invitation(kind=InvitationKind.MATCH, match=match, player=p, invited_by=invited_by)
        for p in unique
    )
    _announce_sent([i.pk for i in made])
    live.users_changed(p.user_id for p in unique)  # their headers' invitation badges
    return made


def _announce_sent(ids: list[int]) -> None:
    transaction.on_commit(lambda: invitation_sent.send(sender=Invitation, invitation_ids=ids))


def invite_to_entry(*, player: Player, invited_by, target_kind: str, target_id: int) -> Invitation:
    """An invitation to an entry games knows only by kind and id (the same open one again
    if it exists). The owning app makes the entry on `invitation_accepted`."""
    from django.core.exceptions import ValidationError

    if player.kind == PlayerKind.ENGINE_BOT:
        raise ValidationError({"player": gettext("Built-in bots are entered directly.")})
    with transaction.atomic():
        open_ = Invitation.objects.select_for_update().filter(
            kind=InvitationKind.ENTRY, player=player, target_kind=target_kind, target_id=target_id,
            status=InvitationStatus.PENDING,
        )  # fmt: skip
        existing = open_.first()
        if existing is not None:
            if existing.is_open:
                return existing
            existing.status, existing.answered_at = InvitationStatus.EXPIRED, timezone.now()
            existing.save(update_fields=["status", "answered_at"])
        made = Invitation.objects.create(
            kind=InvitationKind.ENTRY, player=player, invited_by=invited_by,
            target_kind=target_kind, target_id=target_id,
        )  # fmt: skip
        _announce_sent([made.pk])
        live.users_changed([player.user_id])
        return made


def _load(invitation_id: int, user) -> Invitation:
    invitation = Invitation.objects.select_related("player").filter(pk=invitation_id).first()
    if invitation is None:
        raise InvitationNotFound(gettext("no invitation %(id)s") % {"id": invitation_id})
    if not getattr(user, "is_authenticated", False) or invitation.player.user_id != user.pk:
        raise NotYourInvitation(gettext("only the invited player can answer an invitation"))
    return invitation


def _cancel_match(match: Match, reason: str, now) -> None:
    """Abort a match still waiting for its players (caller holds its lock)."""
    # Its page, the lists, and the headers of whoever still had an invitation to it.
    live.match_changed(match.pk, users=live.users_of(match.pk))
    if match.status == MatchStatus.PENDING:
        match.status, match.finished_at, match.abort_reason = MatchStatus.ABORTED, now, reason[:200]
        match.save(update_fields=["status", "finished_at", "abort_reason", "updated_at"])
    match.invitations.filter(status=InvitationStatus.PENDING).update(
        status=InvitationStatus.CANCELLED, answered_at=now
    )


def _answer(invitation_id: int, user, accept: bool) -> Invitation:
    invitation = _load(invitation_id, user)
    invitee = invitation.player.user_id
    closed = None
    with transaction.atomic():
        # The match row first, then the invitation: concurrent answers to one match queue.
        match = (
            Match.objects.select_for_update().get(pk=invitation.match_id)
            if invitation.match_id
            else None
        )
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        now = timezone.now()
        # Her badge, and the match's page (who accepted); a start or a cancellation below
        # announces the rest.
        live.match_changed(invitation.match_id, users=[invitee], listed=False)
        if invitation.status == InvitationStatus.PENDING and invitation.expires_at <= now:
            # Expiry is checked here as well as by the periodic task.
            invitation.status, invitation.answered_at = InvitationStatus.EXPIRED, now
            invitation.save(update_fields=["status", "answered_at"])
            if match is not None:
                _cancel_match(match, f"the invitation of {invitation.player.name} expired", now)
            closed = "the invitation has expired"
        elif invitation.status != InvitationStatus.PENDING:
            closed = f"the invitation is already {invitation.get_status_display().lower()}"
        elif not accept:
            invitation.status, invitation.answered_at = InvitationStatus.DECLINED, now
            invitation.save(update_fields=["status", "answered_at"])
            if match is not None:
                _cancel_match(match, f"{invitation.player.name} declined the invitation", now)
        else:
            invitation.status, invitation.answered_at = InvitationStatus.ACCEPTED, now
            invitation.save(update_fields=["status", "answered_at"])
            if match is not None:
                if ready_to_start(match):  # open seats, if any, wait for takers
                    start_match(match_id=match.pk)
            else:
                _announce(invitation)
    if closed:
        raise InvitationClosed(closed)
    answered = {"invitation_id": invitation.pk, "accepted": accept}
    transaction.on_commit(lambda: invitation_answered.send(sender=Invitation, **answered))
    return invitation


def _announce(invitation: Invitation) -> None:
    kwargs = {
        "invitation_id": invitation.pk, "target_kind": invitation.target_kind,
        "target_id": invitation.target_id, "player_id": invitation.player_id,
        "invited_by_id": invitation.invited_by_id,
    }  # fmt: skip
    transaction.on_commit(lambda: invitation_accepted.send(sender=Invitation, **kwargs))


def accept_invitation(*, invitation_id: int, user) -> Invitation:
    """Only the invited player; 404 unknown, 403 someone else's, 409 answered or expired.
    The last acceptance of a match starts it."""
    return _answer(invitation_id, user, accept=True)


def decline_invitation(*, invitation_id: int, user) -> Invitation:
    """A declined match invitation cancels the match (aborted, with the reason)."""
    return _answer(invitation_id, user, accept=False)


def expire_invitations() -> int:
    """Close every open invitation past its time, cancelling the matches that waited on it.
    Run periodically (beat); returns how many expired."""
    expired = 0
    due = Invitation.objects.filter(status=InvitationStatus.PENDING, expires_at__lte=timezone.now())
    for invitation_id, match_id in due.values_list("pk", "match_id"):
        with transaction.atomic():
            match = (
                Match.objects.select_for_update().filter(pk=match_id).first() if match_id else None
            )
            invitation = (
                Invitation.objects.select_for_update()
                .select_related("player")
                .get(pk=invitation_id)
            )
            now = timezone.now()
            if invitation.status != InvitationStatus.PENDING or invitation.expires_at > now:
                continue
            invitation.status, invitation.answered_at = InvitationStatus.EXPIRED, now
            invitation.save(update_fields=["status", "answered_at"])
            live.users_changed([invitation.player.user_id])
            if match is not None:
                _cancel_match(match, f"the invitation of {invitation.player.name} expired", now)
            expired += 1
    return expired
