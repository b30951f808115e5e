"""clubs listens to games' signals (games never imports clubs)."""

from django.dispatch import receiver

from games.signals import invitation_accepted


@receiver(invitation_accepted, dispatch_uid="clubs.invitation_accepted")
def on_invitation_accepted(sender, target_kind: str, target_id: int, player_id: int, **kwargs):
    """An accepted invitation to a club makes her a member (once, however often sent)."""
    from clubs.services import membership

    if target_kind != membership.INVITATION_TARGET:
        return
    membership.complete_invitation(club_id=target_id, player_id=player_id)
