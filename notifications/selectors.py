"""Reads: a person's notices and the bell's count."""

from django.db.models import QuerySet

from notifications.models import Notification


def unread_count(user) -> int:
    if not getattr(user, "is_authenticated", False):
        return 0
    return Notification.objects.filter(recipient=user, read_at__isnull=True).count()


def notices_for(user) -> QuerySet[Notification]:
    return Notification.objects.filter(recipient=user).order_by("-created_at", "-pk")
