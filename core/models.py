"""The API tokens bot programs and scripts sign in with (core/tokens.py issues and checks them).

Only a SHA-256 digest of each key is stored: a database dump, a backup or the admin never
holds a usable key. The key is shown once, when it is made.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens",
        verbose_name=_("user"),
    )  # fmt: skip
    name = models.CharField(_("name"), max_length=80, blank=True)
    # The key's first characters, to tell one's tokens apart; not enough to guess the rest.
    prefix = models.CharField(_("prefix"), max_length=8)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        indexes = [models.Index(fields=["user", "created_at"], name="api_token_user")]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user_id})"

    @property
    def expired(self) -> bool:
        return self.expires_at <= timezone.now()


class LiveChange(models.Model):
    """An announcement that an object changed, for the live pages' table backend (the
    embedded default without Redis, core/live/backends.py): written in the writer's own
    transaction, read by every web process, kept LIVE_TABLE_KEEP_S."""

    channel = models.CharField(max_length=120)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("live change")
        verbose_name_plural = _("live changes")

    def __str__(self) -> str:
        return self.channel
