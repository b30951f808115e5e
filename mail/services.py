"""Sending e-mail (issue #30). Nothing is sent inside a request: `queue_mail` stores an
`OutgoingMail` row and, once the transaction commits, queues `mail.tasks.send_mail`, which
sends it through Django's configured backend (settings.EMAIL_BACKEND, from EMAIL_URL) and
retries with back-off when the server is away or answers 4xx.

Templates (`mail_user`): a mail called "<name>" is three files under templates/mail/:

- `<name>.subject.txt` — one line (whitespace is collapsed; no HTML escaping);
- `<name>.txt` — the plain-text body, rendered without HTML escaping. It may
  `{% extends "mail/base.txt" %}` and fill `{% block content %}` (and `{% block footer %}`,
  which by default names the site and its address);
- `<name>.html` — optional, the HTML alternative: `{% extends "mail/base.html" %}` and fill
  `{% block content %}` (and `{% block footer %}`); styles inline, since mail readers drop
  style sheets. Links must be absolute: `mail.links.absolute_url(path)` in the caller, or
  `{{ site_url }}` in the template.

They are rendered in the user's language (user.player.language, else the site's) with the
caller's context plus `site_name`, `site_url` and `user`. Translate with `{% translate %}`
/ `{% blocktranslate %}` as in pages (load i18n).
"""

from __future__ import annotations

import logging
import smtplib
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template import Context, TemplateDoesNotExist
from django.template.loader import get_template, render_to_string
from django.utils import timezone, translation

from mail.models import MailStatus, OutgoingMail

logger = logging.getLogger("mail.services")

SUBJECT_MAX = OutgoingMail._meta.get_field("subject").max_length


def queue_mail(
    *,
    to: str,
    subject: str,
    text: str,
    html: str = "",
    headers: dict | None = None,
    kind: str = "",
    user=None,
) -> OutgoingMail:
    """Store a mail and send it from a task once the current transaction commits (at once
    outside a transaction); a rolled-back transaction leaves neither row nor mail."""
    subject = " ".join(subject.split())[:SUBJECT_MAX]
    mail = OutgoingMail.objects.create(
        to=to, subject=subject, text=text, html=html, headers=dict(headers or {}),
        kind=kind, user=user,
    )  # fmt: skip
    transaction.on_commit(SendAfterCommit(mail.pk))
    return mail


class SendAfterCommit:
    """The on-commit callback that queues one mail's task. A class, so the test SMTP server
    (tests/mail_server.py) can tell mail callbacks apart in the pending on-commit list."""

    def __init__(self, mail_id: int) -> None:
        self.mail_id = mail_id

    def __call__(self) -> None:
        from mail import tasks  # tasks import this module

        if settings.MAIL_SEND_EAGER:  # tests: sent in this process, retries run at once
            tasks.send_mail.apply(args=(self.mail_id,))
        else:
            tasks.send_mail.delay(self.mail_id)


def mail_user(
    *,
    user,
    template: str,
    context: dict,
    kind: str = "",
    headers: dict | None = None,
    to: str | None = None,
) -> OutgoingMail | None:
    """Render templates/mail/<template>.* in the user's language and queue the mail to `to`
    or the user's address; None (nothing queued) when there is no address."""
    address = to if to is not None else (user.email or "")
    if not address:
        return None
    full = {
        **context,
        "site_name": settings.SITE_NAME,
        "site_url": settings.SITE_URL.rstrip("/"),
        "user": user,
    }
    with translation.override(user_language(user)):
        subject = _render_plain(f"mail/{template}.subject.txt", full)
        text = _render_plain(f"mail/{template}.txt", full)
        try:
            html = render_to_string(f"mail/{template}.html", full)
        except TemplateDoesNotExist:
            html = ""
    return queue_mail(
        to=address, subject=subject, text=text, html=html, headers=headers, kind=kind, user=user
    )


def user_language(user) -> str:
    player = getattr(user, "player", None) if user is not None else None
    language = getattr(player, "language", "") or ""
    codes = {code for code, _ in settings.LANGUAGES}
    return language if language in codes else settings.LANGUAGE_CODE


def _render_plain(name: str, context: dict) -> str:
    """A text template without HTML escaping (subjects and plain bodies are not HTML)."""
    template = get_template(name).template  # the Django engine's own Template
    return template.render(Context(context, autoescape=False)).strip() + (
        "" if name.endswith(".subject.txt") else "\n"
    )


# Errors worth another try: the server away, refusing for now (4xx), the line dropped.
# A 5xx answer (no such mailbox, refused for good) fails at once.
class PermanentFailure(Exception):
    pass


def _is_permanent(exc: Exception) -> bool:
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in exc.recipients.values())
    if isinstance(exc, smtplib.SMTPResponseException):
        return exc.smtp_code >= 500
    return False


def deliver(mail_id: int, *, last_try: bool) -> str | None:
    """Send the mail once, if it is still queued. Returns the error text when it failed and
    should be tried again; records the failure (status failed) on the last try or when the
    server refused for good. A sent or failed mail is left alone (a repeated task)."""
    mail = OutgoingMail.objects.filter(pk=mail_id, status=MailStatus.QUEUED).first()
    if mail is None:
        return None
    # Claimed by moving its attempt count on: of two copies of the task, one sends.
    claimed = OutgoingMail.objects.filter(
        pk=mail.pk, status=MailStatus.QUEUED, attempts=mail.attempts
    ).update(attempts=mail.attempts + 1)
    if not claimed:
        return None
    message = EmailMultiAlternatives(
        subject=mail.subject,
        body=mail.text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[mail.to],
        headers=mail.headers or None,
    )
    if mail.html:
        message.attach_alternative(mail.html, "text/html")
    try:
        message.send()
    except (smtplib.SMTPException, OSError) as exc:
        error = f"{type(exc).__name__}: {exc}"[:2000]
        if last_try or _is_permanent(exc):
            OutgoingMail.objects.filter(pk=mail.pk).update(
                status=MailStatus.FAILED, last_error=error
            )
            logger.warning("mail %s to %s failed: %s", mail.pk, mail.to, error)
            return None
        OutgoingMail.objects.filter(pk=mail.pk).update(last_error=error)
        return error
    OutgoingMail.objects.filter(pk=mail.pk).update(status=MailStatus.SENT, sent_at=timezone.now())
    return None


# A queued mail's retries end about 2 h 40 min after the first try (mail.tasks.BACKOFF_S):
# one still queued after LOST_AFTER lost its task (a worker or broker gone); it is queued
# again, until GIVE_UP_AFTER, when it is marked failed so that it shows on the operations page.
LOST_AFTER = timedelta(hours=3)
GIVE_UP_AFTER = timedelta(days=2)


def requeue_lost(now=None) -> tuple[int, int]:
    """Queue again the mails whose task was lost; fail those too old to be worth sending.
    Returns (queued again, given up). Two copies of a task send once (deliver's claim)."""
    now = now or timezone.now()
    stale = OutgoingMail.objects.filter(status=MailStatus.QUEUED, created_at__lt=now - LOST_AFTER)
    given_up = stale.filter(created_at__lt=now - GIVE_UP_AFTER).update(
        status=MailStatus.FAILED, last_error="Not sent within two days: no worker took it."
    )
    ids = list(stale.values_list("pk", flat=True))
    for mail_id in ids:
        transaction.on_commit(SendAfterCommit(mail_id))
    return len(ids), given_up


def send_again(mail_ids) -> int:
    """Failed mails queued once more (staff, after mending the mail server's settings)."""
    ids = list(
        OutgoingMail.objects.filter(pk__in=list(mail_ids), status=MailStatus.FAILED)
        .values_list("pk", flat=True)
    )  # fmt: skip
    OutgoingMail.objects.filter(pk__in=ids).update(status=MailStatus.QUEUED, attempts=0)
    for mail_id in ids:
        transaction.on_commit(SendAfterCommit(mail_id))
    return len(ids)
