"""Writes: a notice made (once per event), e-mailed now or kept for the daily digest as
its recipient prefers, marked read, preferences set, one-click unsubscribe."""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation

from core.live.publish import publish, user_channel
from notifications.models import (
    DEFAULT_DELIVERY,
    Delivery,
    NoticeKind,
    Notification,
    NotificationPreference,
)
from notifications.texts import subject, text

UNSUBSCRIBE_SALT = "notifications.unsubscribe"
# The digest's own link: it turns off every kind sent "daily" at once.
DIGEST = "daily"


def delivery_for(user, kind: str) -> str:
    row = NotificationPreference.objects.filter(user=user, kind=kind).first()
    return row.delivery if row else DEFAULT_DELIVERY.get(kind, Delivery.NEVER)


def preferences_of(user) -> dict[str, str]:
    saved = dict(NotificationPreference.objects.filter(user=user).values_list("kind", "delivery"))
    return {kind: saved.get(kind, DEFAULT_DELIVERY[kind]) for kind in NoticeKind.values}


def set_preference(*, user, kind: str, delivery: str) -> None:
    if kind not in NoticeKind.values or delivery not in Delivery.values:
        raise ValueError(f"unknown kind or delivery: {kind!r} {delivery!r}")
    NotificationPreference.objects.update_or_create(
        user=user, kind=kind, defaults={"delivery": delivery}
    )


def may_email(user) -> bool:
    """Only a verified address gets mail; everyone gets the notice on the site."""
    player = getattr(user, "player", None)
    return bool(user.email) and player is not None and player.email_verified_at is not None


def notify(*, user, kind: str, key: str, url: str = "", data: dict | None = None):
    """The notice for one event (the same `key` again: nothing new, None). Mail goes out
    after the caller's transaction commits."""
    if user is None or not getattr(user, "is_active", True):
        return None
    delivery = delivery_for(user, kind)
    try:
        with transaction.atomic():
            notice = Notification.objects.create(
                recipient=user, kind=kind, key=key[:120], url=url, data=data or {},
                digest_pending=delivery == Delivery.DAILY and may_email(user),
            )  # fmt: skip
    except IntegrityError:
        return None  # notified already
    publish(user_channel(user.pk))  # the bell's count on her open pages
    if delivery == Delivery.IMMEDIATELY and may_email(user):
        transaction.on_commit(lambda: send_notice_mail(notice.pk))
    if delivery == Delivery.IMMEDIATELY:  # and to her browsers (no verified address needed)
        from notifications.push import queue_push

        queue_push(notice)
    return notice


def language_of(user) -> str:
    player = getattr(user, "player", None)
    return (
        (getattr(player, "language", "") or settings.LANGUAGE_CODE)
        if player
        else (settings.LANGUAGE_CODE)
    )


def unsubscribe_token(user, kind: str) -> str:
    return signing.dumps({"u": user.pk, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_token(token: str) -> tuple[int, str] | None:
    """(user id, kind) from a link's token, None when forged or garbled."""
    try:
        value = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("u"), int):
        return None
    kind = value.get("k")
    if kind != DIGEST and kind not in NoticeKind.values:
        return None
    return value["u"], kind


def unsubscribe(*, user_id: int, kind: str) -> list[str]:
    """That kind (the digest's link: every kind sent daily) set to "never"; the kinds
    turned off."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        return []
    if kind == DIGEST:
        kinds = [k for k, d in preferences_of(user).items() if d == Delivery.DAILY]
    else:
        kinds = [kind]
    for k in kinds:
        set_preference(user=user, kind=k, delivery=Delivery.NEVER)
    Notification.objects.filter(recipient=user, kind__in=kinds, digest_pending=True).update(
        digest_pending=False
    )
    return kinds


def _mail_headers(user, kind: str) -> tuple[dict, str]:
    from mail.links import absolute_url

    link = absolute_url(reverse("notification-unsubscribe", args=[unsubscribe_token(user, kind)]))
    headers = {
        "List-Unsubscribe": f"<{link}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    return headers, link


def _context(notices: list[Notification], user, kind: str, link: str) -> dict:
    from mail.links import absolute_url

    with translation.override(language_of(user)):
        items = [{"text": text(n.kind, n.data), "url": absolute_url(n.url) if n.url else ""}
                 for n in notices]  # fmt: skip
        first = notices[0]
        return {
            "subject": subject(first.kind, first.data) if len(notices) == 1 else "",
            "text": items[0]["text"], "url": items[0]["url"], "items": items,
            "kind_label": str(NoticeKind(kind).label) if kind in NoticeKind.values else "",
            "unsubscribe_url": link,
            "preferences_url": absolute_url(reverse("notification-preferences")),
        }  # fmt: skip


def send_notice_mail(notice_id: int) -> bool:
    """One notice's mail (template mail/notice_<kind>.*), once."""
    from mail.services import mail_user

    with transaction.atomic():
        notice = (
            Notification.objects.select_for_update(of=("self",)).select_related("recipient__player")
            .filter(pk=notice_id, emailed_at__isnull=True).first()
        )  # fmt: skip
        if notice is None or not may_email(notice.recipient):
            return False
        user = notice.recipient
        headers, link = _mail_headers(user, notice.kind)
        mail_user(user=user, template=f"notice_{notice.kind}",
                  context=_context([notice], user, notice.kind, link),
                  kind=f"notice_{notice.kind}", headers=headers)  # fmt: skip
        notice.emailed_at = timezone.now()
        notice.save(update_fields=["emailed_at"])
    return True


def send_digest(user) -> int:
    """One mail with `user`'s notices waiting for the digest (of kinds still "daily")."""
    from mail.services import mail_user

    with transaction.atomic():
        waiting = list(
            Notification.objects.select_for_update()
            .filter(recipient=user, digest_pending=True).order_by("created_at", "pk")
        )  # fmt: skip
        if not waiting:
            return 0
        prefs = preferences_of(user)
        due = [n for n in waiting if prefs.get(n.kind) == Delivery.DAILY]
        now = timezone.now()
        if due and may_email(user):
            headers, link = _mail_headers(user, DIGEST)
            mail_user(user=user, template="notice_digest",
                      context=_context(due, user, DIGEST, link), kind="notice_digest",
                      headers=headers)  # fmt: skip
            Notification.objects.filter(pk__in=[n.pk for n in due]).update(emailed_at=now)
        Notification.objects.filter(pk__in=[n.pk for n in waiting]).update(digest_pending=False)
        return len(due)


def send_digests() -> int:
    """Every waiting digest (beat, once a day); how many mails."""
    from django.contrib.auth import get_user_model

    ids = (
        Notification.objects.filter(digest_pending=True)
        .values_list("recipient_id", flat=True).distinct()
    )  # fmt: skip
    sent = 0
    for user in get_user_model().objects.filter(pk__in=list(ids)).select_related("player"):
        sent += 1 if send_digest(user) else 0
    return sent


def mark_read(*, user, ids: list[int] | None = None, everything: bool = False) -> int:
    qs = Notification.objects.filter(recipient=user, read_at__isnull=True)
    if not everything:
        qs = qs.filter(pk__in=ids or [])
    read = qs.update(read_at=timezone.now())
    if read:
        publish(user_channel(user.pk))
    return read
