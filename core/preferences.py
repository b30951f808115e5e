"""A signed-in person's page preferences kept on their Player (the time zone has its own
service, games.services.set_time_zone, because pages cache it)."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from games.models import Player, PlayerKind


def set_turn_sound(*, user, on: bool) -> bool:
    """Switch the short sound on one's move or invitation (static/js/live-header.js) on or
    off; True when this changed it. An account without a player is a ValidationError."""
    player = Player.objects.filter(user=user, kind=PlayerKind.HUMAN).first()
    if player is None:
        raise ValidationError(gettext("This account has no player."))
    if player.turn_sound == bool(on):
        return False
    player.turn_sound = bool(on)
    player.save(update_fields=["turn_sound"])
    return True
