"""Invitations: how a human is seated by someone else, or entered into something
games does not know (a tournament), only with their consent."""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class InvitationKind(models.TextChoices):
    MATCH = "match", _("Seat in a match")
    ENTRY = "entry", _("Entry (e.g. into a tournament)")


class InvitationStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for an answer")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")
    EXPIRED = "expired", _("Expired")
    CANCELLED = "cancelled", _("Cancelled")


def default_expiry():
    return timezone.now() + timedelta(hours=settings.INVITATION_HOURS)


class Invitation(models.Model):
    kind = models.CharField(max_length=8, choices=InvitationKind.choices, verbose_name=_("kind"))
    match = models.ForeignKey(
        "games.Match",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations",
        verbose_name=_("match"),
    )
    # An entry names its target by kind and id: games imports no app that owns it.
    target_kind = models.CharField(
        max_length=32, blank=True, help_text='e.g. "tournament"', verbose_name=_("target kind")
    )
    target_id = models.PositiveBigIntegerField(null=True, blank=True, verbose_name=_("target id"))
    player = models.ForeignKey(
        "games.Player",
        on_delete=models.CASCADE,
        related_name="invitations",
        verbose_name=_("player"),
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="invitations_sent",
     verbose_name=_("invited by"),)  # fmt: skip
    status = models.CharField(
        max_length=10,
        choices=InvitationStatus.choices,
        default=InvitationStatus.PENDING,
        verbose_name=_("status"),
    )
    expires_at = models.DateTimeField(
        default=default_expiry, db_index=True, verbose_name=_("expires")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    answered_at = models.DateTimeField(null=True, blank=True, verbose_name=_("answered"))

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["player", "status"], name="invitation_player_status")]
        constraints = [
            models.CheckConstraint(
                name="invitation_kind_target",
                condition=Q(kind=InvitationKind.MATCH, match__isnull=False)
                | Q(kind=InvitationKind.ENTRY, match__isnull=True, target_id__isnull=False)
                & ~Q(target_kind=""),
            ),
            models.UniqueConstraint(
                fields=["player", "target_kind", "target_id"],
                condition=Q(status=InvitationStatus.PENDING, kind=InvitationKind.ENTRY),
                name="invitation_one_pending_entry",
            ),
        ]

    def __str__(self) -> str:
        target = (
            f"match {self.match_id}" if self.match_id else f"{self.target_kind} {self.target_id}"
        )
        return f"{self.player} to {target} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.status == InvitationStatus.PENDING and self.expires_at > timezone.now()
