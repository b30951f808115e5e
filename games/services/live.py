"""What the match services announce to live pages (core/live/publish.py) besides the
decisions, which dispatch.announce covers: a match created, started without a decision
(none is written yet), cancelled or aborted, a seat taken, invitations sent and answered.

Called inside the writer's transaction: the announcement leaves after the commit.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.live import publish as live
from games.models import Invitation, InvitationStatus, Seat


def users_of(match_id: int) -> set[int]:
    """The accounts whose header counts a change of the match may move: its seated players'
    (a turn) and those of its invitations still open (an invitation to answer)."""
    seated = Seat.objects.filter(match_id=match_id, player__user__isnull=False)
    invited = Invitation.objects.filter(
        match_id=match_id, status=InvitationStatus.PENDING, player__user__isnull=False
    )
    return set(seated.values_list("player__user_id", flat=True)) | set(
        invited.values_list("player__user_id", flat=True)
    )


def match_changed(match_id: int | None = None, *, users: Iterable[int | None] = (),
                  listed: bool = True) -> None:  # fmt: skip
    """The match's page, these people's headers and (`listed`) the match lists, in one
    announcement."""
    channels = [live.match_channel(match_id)] if match_id is not None else []
    channels += [live.user_channel(u) for u in sorted({u for u in users if u})]
    if listed:
        channels.append(live.MATCHES_CHANNEL)
    live.publish(*channels)


def users_changed(users: Iterable[int | None]) -> None:
    """These people's header counts (an invitation made or answered)."""
    match_changed(users=users, listed=False)
