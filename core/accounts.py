"""Accounts people can recover (issue #30): whether sign-up needs an e-mail address, the
signed links that prove an address (sign-up, "send again", an e-mail change) and what
following one does.

A link carries {user, the address it proves, the address the account had when it was
sent}, signed (django.core.signing) and valid for EMAIL_LINK_MAX_AGE. It proves the
address only while the account still has the address it had then: after an e-mail
change, every older link is stale. A change is stored only when its link is followed:
until then the account keeps its old address (and the old address gets a notice after).

Mail goes through mail.services (a Celery task after the commit, never in the request);
imported inside the functions, as the contract of issue #30 asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _

EMAIL_LINK_MAX_AGE = timedelta(days=3)
_SALT = "core.accounts.email-link"
SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"

EMAIL_TAKEN = _("Another account uses this e-mail address.")


def email_required() -> bool:
    """Sign-up asks for an address only where mail really leaves the server: with the SMTP
    back-end (EMAIL_URL set). The embedded demo writes mail to files or the console, where
    nobody could read a link sent to her."""
    try:
        backend = import_string(settings.EMAIL_BACKEND)
        smtp = import_string(SMTP_BACKEND)
    except ImportError:
        return False
    return isinstance(backend, type) and issubclass(backend, smtp)


def email_taken(email: str, *, other_than=None) -> bool:
    """Case-insensitively, is the address some (other) account's?"""
    accounts = get_user_model().objects.filter(email__iexact=email.strip())
    if other_than is not None:
        accounts = accounts.exclude(pk=other_than.pk)
    return bool(email.strip()) and accounts.exists()


def page_language() -> str:
    """The language of the page being answered, as one of settings.LANGUAGES ("" if none)."""
    try:
        return translation.get_supported_language_variant(translation.get_language() or "")
    except LookupError:
        return ""


# ---- the links ---------------------------------------------------------------------------
def make_token(user, email: str) -> str:
    return signing.TimestampSigner(salt=_SALT).sign_object(
        {"u": user.pk, "e": email, "o": user.email}, compress=True
    )


class LinkRefused(Exception):
    """Why a link does nothing: "invalid" (wrong or tampered), "expired", "stale" (the
    account's address changed since), "taken" (another account has the address now)."""

    def __init__(self, reason: str, user=None):
        super().__init__(reason)
        self.reason, self.user = reason, user


def _read(token: str, *, max_age: timedelta | None):
    try:
        data = signing.TimestampSigner(salt=_SALT).unsign_object(token, max_age=max_age)
        user = get_user_model().objects.get(pk=data["u"])
        email, old = str(data["e"]), str(data["o"])
    except signing.SignatureExpired:
        raise LinkRefused("expired", _read(token, max_age=None)[0]) from None
    except (signing.BadSignature, KeyError, TypeError, ValueError, get_user_model().DoesNotExist):
        raise LinkRefused("invalid") from None
    return user, email, old


def link_url(user, email: str) -> str:
    from mail.links import absolute_url

    return absolute_url(reverse("verify-email", args=[make_token(user, email)]))


# ---- sending -----------------------------------------------------------------------------
def send_verification(user, email: str | None = None):
    """Mail a link proving `email` (default: the account's own address) to that address.
    The OutgoingMail, or None when there is no address."""
    from mail.services import mail_user

    email = user.email if email is None else email
    if not email:
        return None
    changing = email.casefold() != (user.email or "").casefold()
    return mail_user(
        user=user, template="verify_email", to=email, kind=CHANGE_KIND if changing else VERIFY_KIND,
        context={"verify_url": link_url(user, email), "email": email, "changing": changing,
                 "days": EMAIL_LINK_MAX_AGE.days},
    )  # fmt: skip


VERIFY_KIND, CHANGE_KIND = "verify_email", "email_change"  # OutgoingMail.kind


def start_account(player, *, language: str) -> None:
    """After sign-up: the language her mails come in, and the link proving her address."""
    if language and player.language != language:
        player.language = language
        player.save(update_fields=["language"])
    send_verification(player.user)


def request_email_change(user, new_email: str):
    """Send the link that changes the account's address to `new_email` (to that address);
    nothing is stored until it is followed. ValueError when another account has it."""
    new_email = get_user_model().objects.normalize_email(new_email.strip())
    if email_taken(new_email, other_than=user):
        raise ValueError(str(EMAIL_TAKEN))
    return send_verification(user, new_email)


@dataclass
class Followed:
    user: object
    changed_from: str | None  # the old address when the link changed it, else None


def follow_link(token: str) -> Followed:
    """Verify the address the link proves (changing the account's to it if needed)."""
    user, email, old = _read(token, max_age=EMAIL_LINK_MAX_AGE)
    User = get_user_model()
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.email != old and user.email.casefold() != email.casefold():
            raise LinkRefused("stale", user)
        changed_from = None
        if user.email.casefold() != email.casefold():
            if email_taken(email, other_than=user):
                raise LinkRefused("taken", user)
            changed_from, user.email = user.email, email
            user.save(update_fields=["email"])
        mark_verified(user)
    if changed_from:
        _notify_old_address(user, changed_from)
    return Followed(user=user, changed_from=changed_from)


def forget_verification_on_change(sender, instance, update_fields=None, raw=False, **kwargs):
    """pre_save of the user: a changed address is not verified (follow_link verifies it
    again after saving it)."""
    if raw or instance.pk is None or (update_fields is not None and "email" not in update_fields):
        return
    from games.models import Player

    before = sender.objects.filter(pk=instance.pk).values_list("email", flat=True).first()
    if before is not None and before.casefold() != (instance.email or "").casefold():
        Player.objects.filter(user_id=instance.pk).update(email_verified_at=None)


def mark_verified(user) -> None:
    from games.models import Player

    Player.objects.filter(user=user).update(email_verified_at=timezone.now())


def _notify_old_address(user, old: str) -> None:
    from mail.services import mail_user

    mail_user(user=user, template="email_changed", to=old, kind="email_changed",
              context={"old_email": old, "new_email": user.email})  # fmt: skip


def resend_for(token: str):
    """ "Send again" from a refused link: a new link for the same address, if the link was
    ours (only expired) and still fits the account. The OutgoingMail, or LinkRefused."""
    try:
        user, email, old = _read(token, max_age=EMAIL_LINK_MAX_AGE)
    except LinkRefused as refused:
        if refused.reason != "expired":
            raise
        user, email, old = _read(token, max_age=None)
    if user.email != old and user.email.casefold() != email.casefold():
        raise LinkRefused("stale", user)
    return send_verification(user, email)


# ---- the settings page -------------------------------------------------------------------
def pending_email(user) -> str | None:
    """The address an e-mail change waits for (its link sent, not followed yet), if any:
    the newest change link mailed in the last EMAIL_LINK_MAX_AGE, since the account's
    address was last verified, to another address than the account's."""
    from mail.models import OutgoingMail

    player = getattr(user, "player", None)
    since = timezone.now() - EMAIL_LINK_MAX_AGE
    if player is not None and player.email_verified_at:
        since = max(since, player.email_verified_at)
    last = (
        OutgoingMail.objects.filter(user=user, kind=CHANGE_KIND, created_at__gt=since)
        .order_by("-created_at", "-pk")
        .values_list("to", flat=True)
        .first()
    )
    if last and last.casefold() != (user.email or "").casefold():
        return last
    return None


def email_status(user) -> dict:
    """What the settings page shows about the address."""
    player = getattr(user, "player", None)
    return {
        "address": user.email,
        "verified": bool(user.email and player is not None and player.email_verified_at),
        "pending": pending_email(user),
    }


def remember_language(user, language: str | None = None) -> None:
    """Mails and notices reach her in the language she reads the site in: stored when she
    signs in and when she saves her settings (blank or unknown: left as it was)."""
    language = language or page_language()
    known = {code for code, _name in settings.LANGUAGES}
    if language in known and getattr(user, "pk", None):
        from games.models import Player

        Player.objects.filter(user_id=user.pk).exclude(language=language).update(language=language)


def on_logged_in(sender, request, user, **kwargs) -> None:
    remember_language(user)
