from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class MailStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    SENT = "sent", _("sent")
    FAILED = "failed", _("failed")


class OutgoingMail(models.Model):
    """One e-mail: stored when queued, then sent (or given up on) by `mail.tasks.send_mail`."""

    to = models.CharField(_("recipient"), max_length=320)
    subject = models.CharField(_("subject"), max_length=255)
    text = models.TextField(_("text"))
    html = models.TextField(_("HTML"), blank=True)
    headers = models.JSONField(_("headers"), default=dict, blank=True)
    # What the mail is for ("password_reset", "notice", ...): for the outbox and counting.
    kind = models.CharField(_("kind"), max_length=50, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="outgoing_mails",
        verbose_name=_("user"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=MailStatus.choices, default=MailStatus.QUEUED
    )
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("outgoing mail")
        verbose_name_plural = _("outgoing mails")
        indexes = [models.Index(fields=["status", "created_at"], name="mail_status_created")]

    def __str__(self) -> str:
        return f"{self.to}: {self.subject}"
