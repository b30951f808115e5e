"""Receivers the games app connects to other apps' signals (wired in GamesConfig.ready)."""

from __future__ import annotations

import contextlib
import contextvars

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

# Set while an account for an external bot program is being made: that account's
# player is the bot, made by the caller right after, not a human player.
_bot_account = contextvars.ContextVar("games_bot_account", default=False)


@contextlib.contextmanager
def bot_account():
    """Accounts saved inside this block get no human player (they belong to a bot)."""
    token = _bot_account.set(True)
    try:
        yield
    finally:
        _bot_account.reset(token)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_every_account_a_player")
def every_account_a_player(sender, instance, created, raw=False, **kwargs):
    """Every account is a player, however it was made (sign-up, admin, createsuperuser,
    shell). Fixtures (raw) carry their own players."""
    if not created or raw or _bot_account.get():
        return
    from games.services.players import ensure_human_player

    ensure_human_player(instance)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_name_skeletons")
def account_name_skeletons(sender, instance, created, raw=False, update_fields=None, **kwargs):
    """A renamed account (the admin, a deleted account's anonymous name): its player's
    look-alike keys follow the new user name (Player.known_as)."""
    if created or raw or (update_fields is not None and "username" not in update_fields):
        return
    from core.names import skeletons
    from games.models import Player

    folded, cased = skeletons(instance.get_username())
    Player.objects.filter(user_id=instance.pk).exclude(
        name_skeleton=folded, name_skeleton_cased=cased
    ).update(name_skeleton=folded, name_skeleton_cased=cased)
