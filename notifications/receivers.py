"""games' signals turned into notices (games never imports this app): invitations, a
slow match's turn, a finished unrated match (a rated one: when ratings has applied it)."""

from django.dispatch import receiver
from django.urls import reverse

from games.signals import invitation_answered, invitation_sent, match_finished, turn_passed
from notifications.models import NoticeKind
from notifications.services import notify


def _who(user) -> str:
    if user is None:
        return ""
    player = getattr(user, "player", None)
    return str(player) if player is not None else user.username


def _target(invitation) -> str:
    """What the invitation is for, as a name (a match of <game>, or the tournament)."""
    if invitation.match_id:
        from games.engines.registry import get_engine

        try:
            game = get_engine(invitation.match.game).title
        except Exception:  # an engine taken out since: its code still names it
            game = invitation.match.game
        return f"{game} #{invitation.match_id}"
    from games.selectors import with_targets

    target = with_targets([invitation])[0].target
    return target["name"] if target else f"{invitation.target_kind} {invitation.target_id}"


@receiver(invitation_sent, dispatch_uid="notifications.invitation_sent")
def on_invitation_sent(sender, invitation_ids, **kwargs):
    from games.models import Invitation

    for inv in Invitation.objects.filter(pk__in=invitation_ids).select_related(
        "player__user", "invited_by__player", "match"
    ):
        if inv.player.user_id is None:
            continue
        notify(user=inv.player.user, kind=NoticeKind.INVITATION, key=f"invitation:{inv.pk}",
               url=reverse("invitations"),
               data={"by": _who(inv.invited_by), "target": _target(inv)})  # fmt: skip


@receiver(invitation_answered, dispatch_uid="notifications.invitation_answered")
def on_invitation_answered(sender, invitation_id, accepted, **kwargs):
    from games.models import Invitation

    inv = (
        Invitation.objects.select_related("player", "invited_by", "match")
        .filter(pk=invitation_id).first()
    )  # fmt: skip
    if inv is None or inv.invited_by is None or inv.invited_by_id == inv.player.user_id:
        return
    url = reverse("match-detail", args=[inv.match_id]) if inv.match_id else ""
    notify(user=inv.invited_by, kind=NoticeKind.INVITATION_ANSWERED,
           key=f"invitation_answered:{inv.pk}", url=url,
           data={"player": str(inv.player), "target": _target(inv), "accepted": bool(accepted)})  # fmt: skip


@receiver(turn_passed, dispatch_uid="notifications.turn_passed")
def on_turn_passed(sender, turns, **kwargs):
    from notifications.game_notices import schedule_your_move

    schedule_your_move(list(turns))


@receiver(match_finished, dispatch_uid="notifications.match_finished")
def on_match_finished(sender, match_ids, rated_ids=(), **kwargs):
    # Rated matches are told of by ratings once applied, with the rating change.
    unrated = sorted(set(match_ids) - set(rated_ids or ()))
    if unrated:
        from notifications.game_notices import match_finished_safely

        match_finished_safely(unrated)
