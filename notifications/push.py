"""Web Push of notices (issue #30): the browsers that allowed it, and a notice pushed to
them from a Celery task when its kind is e-mailed "immediately".

Off without VAPID keys (settings VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, from the
environment; `manage.py vapid_keys` makes a pair). A push service that answers 404 or 410
has forgotten the browser: its subscription is deleted. Other failures are recorded in
`last_error` and not retried (the notice is on the site anyway).
"""

from __future__ import annotations

import base64
import ipaddress
import json
import logging
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from notifications.models import Notification, PushSubscription

logger = logging.getLogger(__name__)

# A person's browsers; past this many the oldest subscription makes way for the new one.
MAX_SUBSCRIPTIONS = 20
# Push services take about 4 KB of payload; the notice's words are cut well below.
MAX_TITLE, MAX_BODY = 120, 600
PUSH_TIMEOUT_S = 10
PUSH_TTL_S = 24 * 3600  # a browser offline for longer misses it (it is on the site anyway)
_LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


class InvalidSubscription(ValueError):
    """The browser's subscription can't be used: a message, and the field it is about."""

    def __init__(self, message: str, field: str = "endpoint") -> None:
        super().__init__(message)
        self.field = field


def push_enabled() -> bool:
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def _b64url_bytes(value: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (ValueError, TypeError):
        return None


def _local_allowed() -> bool:
    return settings.DEBUG or settings.PUSH_ALLOW_LOCAL_ENDPOINTS


def _not_a_push_service() -> str:
    return gettext("The endpoint must be a push service's address.")


def check_endpoint(endpoint: str) -> str:
    """The endpoint if the server may POST to it: https to a push service of
    settings.PUSH_SERVICE_HOSTS (never an address: that would point the server at
    machines of its own network), or http(s) to this machine in development and tests."""
    if any(c.isspace() or not c.isprintable() for c in endpoint):
        raise InvalidSubscription(gettext("The endpoint is not a URL."))
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        parts.port  # noqa: B018 (raises on a garbled port)
    except ValueError as exc:
        raise InvalidSubscription(gettext("The endpoint is not a URL.")) from exc
    if host in _LOCAL_HOSTS and _local_allowed() and parts.scheme in ("http", "https"):
        return endpoint
    if parts.scheme != "https" or not host:
        raise InvalidSubscription(gettext("The endpoint must be an https URL."))
    if host in _LOCAL_HOSTS or host.endswith(".localhost"):
        raise InvalidSubscription(_not_a_push_service())
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        if _known_push_service(host):
            return endpoint
    raise InvalidSubscription(_not_a_push_service())


def _known_push_service(host: str) -> bool:
    return any(
        host == known or host.endswith("." + known)
        for known in (h.lower().strip(".") for h in settings.PUSH_SERVICE_HOSTS)
    )


def check_keys(p256dh: str, auth: str) -> None:
    key, secret = _b64url_bytes(p256dh), _b64url_bytes(auth)
    # An uncompressed P-256 point and a 16-byte secret, as browsers make them.
    if key is None or len(key) != 65 or key[0] != 4:
        raise InvalidSubscription(
            gettext("The key p256dh is not a P-256 public key (base64url)."), "keys.p256dh"
        )
    if secret is None or len(secret) != 16:
        raise InvalidSubscription(
            gettext("The auth secret is not 16 bytes (base64url)."), "keys.auth"
        )


def save_subscription(*, user, endpoint: str, p256dh: str, auth: str,
                      user_agent: str = "") -> tuple[PushSubscription, bool]:  # fmt: skip
    """Stores the browser's subscription, or refreshes it (same endpoint: new keys; a
    browser now signed in as someone else notifies her instead); (it, whether new)."""
    check_endpoint(endpoint)
    check_keys(p256dh, auth)
    with transaction.atomic():
        sub, created = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={"user": user, "p256dh": p256dh, "auth": auth,
                      "user_agent": user_agent[:300], "last_error": ""},
        )  # fmt: skip
        extra = PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk")
        stale = list(extra.values_list("pk", flat=True)[MAX_SUBSCRIPTIONS:])
        if stale:
            PushSubscription.objects.filter(pk__in=stale).delete()
    return sub, created


def remove_subscription(*, user, endpoint: str) -> bool:
    """Deletes the caller's own subscription of that endpoint; False when she has none."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


class PushAfterCommit:
    """The on-commit callback that queues a notice's push (a class: tests find it)."""

    def __init__(self, notice_id: int) -> None:
        self.notice_id = notice_id

    def __call__(self) -> None:
        from notifications import push_tasks

        if settings.PUSH_SEND_EAGER:  # tests: pushed in this process
            push_tasks.send_push.apply(args=(self.notice_id,))
        else:
            push_tasks.send_push.delay(self.notice_id)


def queue_push(notice: Notification) -> None:
    """After the caller's transaction commits, the notice goes to the recipient's browsers
    (never inside the request: the push services may be slow)."""
    if not push_enabled():
        return
    if not PushSubscription.objects.filter(user_id=notice.recipient_id).exists():
        return
    transaction.on_commit(PushAfterCommit(notice.pk))


def payload_for(notice: Notification) -> dict:
    """{title, body, url, tag} in the recipient's language; the url absolute."""
    from mail.links import absolute_url
    from notifications.services import language_of
    from notifications.texts import subject, text

    with translation.override(language_of(notice.recipient)):
        title, body = subject(notice.kind, notice.data), text(notice.kind, notice.data)
    return {
        "title": title[:MAX_TITLE], "body": body[:MAX_BODY],
        "url": absolute_url(notice.url or reverse("notifications")),
        "tag": f"notice-{notice.pk}",  # the same notice pushed twice shows once
    }  # fmt: skip


def _send(sub: PushSubscription, data: str) -> tuple[int | None, str]:
    """(the push service's status, an error text or "")."""
    from pywebpush import WebPushException, webpush

    try:
        webpush(
            subscription_info={"endpoint": sub.endpoint,
                               "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
            data=data, vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.VAPID_SUBJECT}, ttl=PUSH_TTL_S,
            timeout=PUSH_TIMEOUT_S,
        )  # fmt: skip
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        return status, " ".join(str(exc.message).split()) or f"status {status}"
    except Exception as exc:  # network, a key the library refuses: recorded, not raised
        return None, f"{type(exc).__name__}: {exc}"
    return 201, ""


def send_push(notice_id: int) -> int:
    """Pushes one notice to each of its recipient's browsers; how many took it."""
    if not push_enabled():
        return 0
    notice = Notification.objects.select_related("recipient__player").filter(pk=notice_id).first()
    if notice is None or notice.read_at is not None:
        return 0  # read on the site before the task ran: nothing to tell
    data = json.dumps(payload_for(notice), ensure_ascii=False)
    sent = 0
    for sub in PushSubscription.objects.filter(user_id=notice.recipient_id):
        status, error = _send(sub, data)
        if not error:
            sent += 1
            if sub.last_error:
                PushSubscription.objects.filter(pk=sub.pk).update(last_error="")
        elif status in (404, 410):  # the browser unsubscribed or the endpoint expired
            PushSubscription.objects.filter(pk=sub.pk).delete()
        else:
            logger.warning("push to subscription %s failed: %s", sub.pk, error)
            PushSubscription.objects.filter(pk=sub.pk).update(last_error=error[:300])
    return sent


def new_vapid_keys() -> tuple[str, str]:
    """(public, private), base64url: the public key an uncompressed P-256 point (the
    browser's applicationServerKey), the private one its raw 32 bytes (what
    VAPID_PRIVATE_KEY holds; pywebpush reads it as it is)."""
    from cryptography.hazmat.primitives import serialization
    from py_vapid import Vapid02

    vapid = Vapid02()
    vapid.generate_keys()
    public = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    return _b64url(public), _b64url(private)


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")
