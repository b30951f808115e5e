"""A person leaving the site (core.personal_data.delete_account): what games keeps of her.

Her human player stays, because seats, ratings and standings point at it (Seat.player is
PROTECT): it is renamed to an anonymous handle and switched off. What only waited for her
is closed: invitations to her or from her that nobody answered, and matches not started
that seat her. Her bots stop playing (the player, their account and their API tokens).
Running matches are left to their clocks: she can no longer act, so she times out.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core import tokens
from games.models import Invitation, InvitationStatus, Match, MatchStatus, Player, PlayerKind
from games.models.players import name_taken
from games.services import live

DELETED_PREFIX = "deleted-"  # handles and usernames of this shape are never given at sign-up


def anonymous_name(player: Player) -> str:
    """The handle a departed person's player gets: "deleted-player-<id>" (free by
    construction: sign-up refuses the prefix; a suffix if an older row holds it anyway)."""
    base = f"{DELETED_PREFIX}player-{player.pk}"
    name, n = base, 1
    while name_taken(name, exclude_pk=player.pk):
        n += 1
        name = f"{base}-{n}"
    return name


def is_anonymous(player) -> bool:
    """A departed person's player (shown as "deleted player <id>" in the reader's words)."""
    return (
        player.kind == PlayerKind.HUMAN
        and not player.is_active
        and player.name.startswith(f"{DELETED_PREFIX}player-{player.pk}")
    )


@transaction.atomic
def retire_player(user) -> list[Player]:
    """Anonymise `user`'s human player, stop her bots, close what waited for her. Returns
    her players (the human one and her bots) for the caller's further steps."""
    from games.services.invitations import _cancel_match  # the decline path's own closing

    now = timezone.now()
    human = Player.objects.select_for_update().filter(user=user, kind=PlayerKind.HUMAN).first()
    bots = list(
        Player.objects.select_for_update().filter(owner=user).exclude(kind=PlayerKind.HUMAN)
    )
    players = ([human] if human else []) + bots
    reason = "a player left the site"
    # Matches not started that wait for her (seated, invited, or hers to start): aborted.
    waiting = Match.objects.filter(status=MatchStatus.PENDING).filter(
        pk__in=Invitation.objects.filter(status=InvitationStatus.PENDING, match__isnull=False)
        .filter(player__in=players)
        .values("match_id")
    ) | Match.objects.filter(status=MatchStatus.PENDING, seats__player__in=players)
    waiting |= Match.objects.filter(status=MatchStatus.PENDING, created_by=user)
    for match in (
        Match.objects.select_for_update().filter(pk__in=waiting.values("pk")).order_by("pk")
    ):
        _cancel_match(match, reason, now)
    # Invitations to an entry (or left over) to her, or sent by her: cancelled.
    Invitation.objects.filter(status=InvitationStatus.PENDING).filter(
        pk__in=Invitation.objects.filter(player__in=players).values("pk")
    ).update(status=InvitationStatus.CANCELLED, answered_at=now)
    sent = Invitation.objects.filter(status=InvitationStatus.PENDING, invited_by=user)
    live.users_changed(sent.values_list("player__user_id", flat=True))  # their badges drop
    sent.update(status=InvitationStatus.CANCELLED, answered_at=now)
    for bot in bots:
        bot.is_active = False
        bot.save(update_fields=["is_active"])
        if bot.user_id:  # an external program: its account and tokens stop working too
            tokens.revoke_all([bot.user_id])
            type(user).objects.filter(pk=bot.user_id).update(is_active=False)
    if human is not None:
        human.name = anonymous_name(human)
        human.display_name = human.description = human.time_zone = ""
        human.language = human.calendar_token = ""
        human.email_verified_at = None
        human.turn_sound = human.is_active = False
        human.save()
    return players
