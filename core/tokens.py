"""API tokens, hashed at rest (issue #31): made, listed, revoked, and checked on each request.

A key is 40 random URL-safe characters, sent as ``Authorization: Token <key>`` (as DRF's
tokens were, so bot programs change nothing). The database keeps its SHA-256 digest, its
first characters (``prefix``) and an expiry, ``API_TOKEN_TTL_DAYS`` after it was made
(a year by default: bot programs run unattended). A plain hash, no salt or slow hash:
the keys are random, 240 bits, not passwords; the digest is unique and looked up directly.

A person may hold several tokens (``MAX_TOKENS`` at most), each with a name. A bot
program's account holds one: a new one replaces it (``replace=True``, the bot page's
"rotate token" and a bot's own ``POST /api/me/tokens/``).

Why not django-rest-knox: it stores no name and no last use, registers an admin list of
its own, and its log-in views are not what we need; this is one model and ~100 lines.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from core.models import ApiToken

KEY_CHARS = 30  # bytes of randomness: 40 characters once encoded
PREFIX_LEN = 8
MAX_TOKENS = 20
# A token's last use is written at most this often: bots poll several times a second.
LAST_USED_EVERY = timedelta(minutes=5)


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def ttl() -> timedelta:
    return timedelta(days=getattr(settings, "API_TOKEN_TTL_DAYS", 365))


def _new(user, name: str, now) -> tuple[ApiToken, str]:
    key = secrets.token_urlsafe(KEY_CHARS)
    token = ApiToken.objects.create(
        user=user, name=name, prefix=key[:PREFIX_LEN], digest=digest(key),
        created_at=now, expires_at=now + ttl(),
    )  # fmt: skip
    return token, key


@transaction.atomic
def issue(user, *, name: str = "", replace: bool = False) -> tuple[ApiToken, str]:
    """A new token for ``user``: the row and the key (shown once, never stored). With
    ``replace`` her other tokens are revoked in the same transaction."""
    name = (name or "").strip()
    if len(name) > ApiToken._meta.get_field("name").max_length:
        raise ValidationError({"name": gettext("The name is too long.")})
    # Her row locked: two requests at once cannot both pass the count below.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    tokens = ApiToken.objects.filter(user=user)
    if replace:
        tokens.delete()
    elif tokens.count() >= MAX_TOKENS:
        raise ValidationError(
            gettext("You have %(n)s tokens, the most one account may hold: revoke one first.")
            % {"n": MAX_TOKENS}
        )
    return _new(user, name, timezone.now())


def one_token_only(user) -> bool:
    """A bot program's account holds one token: a new one replaces the old."""
    # games.models.PlayerKind.EXTERNAL_BOT, read through the relation: core imports no app.
    player = getattr(user, "player", None) if hasattr(user, "player") else None
    return player is not None and player.kind == "external_bot"


def tokens_of(user):
    """Her tokens, newest first (no key: it is not stored)."""
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-pk")


def revoke(user, token_id: int) -> bool:
    """Revoke one of her tokens; False when she has none with this id (another's token
    is as unknown as a missing one)."""
    deleted, _rows = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def revoke_all(user_ids) -> None:
    ApiToken.objects.filter(user_id__in=list(user_ids)).delete()


def check(key: str) -> ApiToken:
    """The live token for ``key``; AuthenticationFailed (401) when unknown, expired or its
    account is inactive."""
    token = ApiToken.objects.select_related("user").filter(digest=digest(key)).first()
    if token is None:
        raise exceptions.AuthenticationFailed(_("Invalid token."))
    now = timezone.now()
    if token.expires_at <= now:
        raise exceptions.AuthenticationFailed(
            _("This token has expired: make a new one on your settings page."), code="token_expired"
        )
    if not token.user.is_active:
        raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
    if token.last_used_at is None or token.last_used_at < now - LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).filter(
            Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_EVERY)
        ).update(last_used_at=now)
        token.last_used_at = now
    return token


class HashedTokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>`` against the stored digests (REST_FRAMEWORK
    DEFAULT_AUTHENTICATION_CLASSES); ``request.auth`` is the ApiToken."""

    keyword = "Token"

    def authenticate_credentials(self, key):
        token = check(key)
        return token.user, token
