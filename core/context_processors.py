"""Template context for every page."""

from django.utils import timezone

from games.models import Invitation, InvitationStatus


def invitation_count(user) -> int:
    """Open invitations waiting for `user`'s answer: one indexed COUNT."""
    return Invitation.objects.filter(
        player__user=user, status=InvitationStatus.PENDING, expires_at__gt=timezone.now()
    ).count()


def pending_invitations(request) -> dict:
    """The count for the header's badge: one indexed COUNT, nothing for anonymous visitors."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"pending_invitations": invitation_count(user)}


def turns_waiting(request) -> dict:
    """The header's "your turn" count: one COUNT, nothing for anonymous visitors."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    from games.selectors import turn_count

    return {"turns_waiting": turn_count(user)}
