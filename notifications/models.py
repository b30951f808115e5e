from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class NoticeKind(models.TextChoices):
    INVITATION = "invitation", _("Invitation received")
    INVITATION_ANSWERED = "invitation_answered", _("Invitation answered")
    YOUR_MOVE = "your_move", _("Your move")
    ROUND_PAIRED = "round_paired", _("Round paired")
    RESULT_TO_CONFIRM = "result_to_confirm", _("Result to confirm")
    RESULT_CORRECTED = "result_corrected", _("Result corrected")
    TOURNAMENT_STARTING = "tournament_starting", _("Tournament starting")
    MATCH_FINISHED = "match_finished", _("Match finished")


class Delivery(models.TextChoices):
    IMMEDIATELY = "immediately", _("E-mail at once")
    DAILY = "daily", _("In a daily e-mail")
    NEVER = "never", _("No e-mail (only on the site)")


# What a person gets until she chooses otherwise.
DEFAULT_DELIVERY = {
    NoticeKind.INVITATION: Delivery.IMMEDIATELY,
    NoticeKind.INVITATION_ANSWERED: Delivery.IMMEDIATELY,
    NoticeKind.YOUR_MOVE: Delivery.IMMEDIATELY,
    NoticeKind.ROUND_PAIRED: Delivery.IMMEDIATELY,
    NoticeKind.RESULT_TO_CONFIRM: Delivery.IMMEDIATELY,
    NoticeKind.RESULT_CORRECTED: Delivery.IMMEDIATELY,
    NoticeKind.TOURNAMENT_STARTING: Delivery.IMMEDIATELY,
    NoticeKind.MATCH_FINISHED: Delivery.DAILY,
}


class Notification(models.Model):
    """One notice to one person. `key` names the event (e.g. "round_paired:12"): the same
    event notified twice is one row, and one mail."""

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications",
        verbose_name=_("recipient"),
    )  # fmt: skip
    kind = models.CharField(max_length=32, choices=NoticeKind.choices, verbose_name=_("kind"))
    key = models.CharField(max_length=120, verbose_name=_("key"))
    url = models.CharField(max_length=300, blank=True, verbose_name=_("link"))
    # The words of the notice (names, numbers), rendered in the reader's language on reading.
    data = models.JSONField(default=dict, blank=True, verbose_name=_("data"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    read_at = models.DateTimeField(null=True, blank=True, verbose_name=_("read"))
    emailed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("e-mailed"))
    # Waits for tomorrow's digest (its kind was "daily" when it came).
    digest_pending = models.BooleanField(default=False, verbose_name=_("waits for the digest"))

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        constraints = [
            models.UniqueConstraint(fields=["recipient", "key"], name="notification_unique_key")
        ]
        indexes = [
            models.Index(
                fields=["recipient"], condition=models.Q(read_at__isnull=True),
                name="notification_unread",
            ),
            models.Index(
                fields=["recipient"], condition=models.Q(digest_pending=True),
                name="notification_digest",
            ),
        ]  # fmt: skip

    def __str__(self) -> str:
        return f"{self.kind} → {self.recipient_id}"


class NotificationPreference(models.Model):
    """How a person wants one kind of notice e-mailed; no row: DEFAULT_DELIVERY."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences",
        verbose_name=_("user"),
    )  # fmt: skip
    kind = models.CharField(max_length=32, choices=NoticeKind.choices, verbose_name=_("kind"))
    delivery = models.CharField(max_length=12, choices=Delivery.choices, verbose_name=_("delivery"))

    class Meta:
        verbose_name = _("notification preference")
        verbose_name_plural = _("notification preferences")
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="notification_preference_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}: {self.delivery}"


class PushSubscription(models.Model):
    """One browser that allowed Web Push notices (notifications/push.py); the endpoint is
    the push service's address for that browser, the keys encrypt what is sent to it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions",
        verbose_name=_("user"),
    )  # fmt: skip
    endpoint = models.URLField(max_length=1024, unique=True, verbose_name=_("endpoint"))
    p256dh = models.CharField(max_length=100, verbose_name=_("public key"))
    auth = models.CharField(max_length=40, verbose_name=_("auth secret"))
    user_agent = models.CharField(max_length=300, blank=True, verbose_name=_("browser"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    last_error = models.CharField(max_length=300, blank=True, verbose_name=_("last error"))

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.endpoint[:60]}"
