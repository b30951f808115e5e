"""Mails leave through a real SMTP server (aiosmtpd, tests/mail_server.py), after the commit,
retried with back-off when the server refuses, and are never sent twice."""

import re

import pytest
from django.db import transaction

from mail import services, tasks
from mail.links import absolute_url
from mail.models import MailStatus, OutgoingMail
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_queued_mail_reaches_the_server_with_text_html_and_headers(smtp_server, settings):
    settings.DEFAULT_FROM_EMAIL = "Caravan Club <club@example.org>"
    user = UserFactory()
    mail = services.queue_mail(
        to="ada@example.org", subject="Round 2  is\n paired", text="Table 3, seat 1.\n",
        html="<p>Table <b>3</b>, seat 1.</p>",
        headers={"List-Unsubscribe": "<https://club.example.org/u/1>", "X-Club-Kind": "round"},
        kind="round", user=user,
    )  # fmt: skip
    [message] = smtp_server.wait_for(1)
    assert message["Subject"] == "Round 2 is paired"  # one line
    assert message["To"] == "ada@example.org"
    assert message["From"] == "Caravan Club <club@example.org>"
    assert message["List-Unsubscribe"] == "<https://club.example.org/u/1>"
    assert message["X-Club-Kind"] == "round"
    assert message.get_content_type() == "multipart/alternative"
    assert message.get_body(("plain",)).get_content().strip() == "Table 3, seat 1."
    assert message.get_body(("html",)).get_content().strip() == "<p>Table <b>3</b>, seat 1.</p>"
    assert smtp_server.envelopes == [("club@example.org", ["ada@example.org"])]
    mail.refresh_from_db()
    assert (mail.status, mail.attempts, mail.user, mail.kind) == (MailStatus.SENT, 1, user, "round")
    assert mail.sent_at is not None and mail.last_error == ""


@pytest.mark.django_db(transaction=True)
def test_nothing_leaves_before_the_commit_and_nothing_after_a_rollback(smtp_server):
    with transaction.atomic():
        services.queue_mail(to="a@example.org", subject="kept", text="1")
        assert smtp_server._messages == []  # not inside the transaction
    assert [m["Subject"] for m in smtp_server.wait_for(1)] == ["kept"]
    with pytest.raises(RuntimeError), transaction.atomic():
        services.queue_mail(to="b@example.org", subject="rolled back", text="2")
        raise RuntimeError
    assert not OutgoingMail.objects.filter(subject="rolled back").exists()
    assert [m["Subject"] for m in smtp_server.messages] == ["kept"]


def test_a_sent_mail_is_not_sent_again_by_a_repeated_task(smtp_server):
    mail = services.queue_mail(to="a@example.org", subject="once", text="x")
    smtp_server.wait_for(1)
    tasks.send_mail.apply(args=(mail.pk,))  # a redelivered message
    tasks.send_mail.apply(args=(mail.pk,))
    assert len(smtp_server.messages) == 1
    mail.refresh_from_db()
    assert (mail.status, mail.attempts) == (MailStatus.SENT, 1)


def test_a_refusing_server_is_retried_with_back_off_then_the_mail_is_failed(smtp_server, client):
    smtp_server.refuse_with = "451 4.3.0 Mailbox busy, try later"
    mail = services.queue_mail(to="ada@example.org", subject="Refused", text="x", kind="notice")
    smtp_server.flush()
    mail.refresh_from_db()
    tries = len(tasks.BACKOFF_S) + 1
    assert smtp_server.refused == tries  # the first try and one a back-off step
    assert (mail.status, mail.attempts) == (MailStatus.FAILED, tries)
    assert "451" in mail.last_error and "Mailbox busy" in mail.last_error
    assert smtp_server._messages == []
    # ... and the staff see it on the operations page, with its error.
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    html = client.get("/admin/operations/").content.decode()
    section = re.search(r'<section[^>]*id="ops-mail".*?</section>', html, re.S).group(0)
    assert "1 mail failed" in section
    assert "ada@example.org" in section and "Mailbox busy" in section
    assert f"/admin/mail/outgoingmail/{mail.pk}/change/" in section


def test_the_back_off_grows_and_ends_after_hours():
    assert list(tasks.BACKOFF_S) == sorted(tasks.BACKOFF_S)
    assert tasks.BACKOFF_S[0] <= 60 and sum(tasks.BACKOFF_S) >= 2 * 3600
    assert tasks.send_mail.max_retries == len(tasks.BACKOFF_S)


def test_a_server_that_is_not_there_fails_the_mail_after_the_retries(smtp_server, settings,
                                                                    refused_port):  # fmt: skip
    settings.EMAIL_PORT = refused_port
    mail = services.queue_mail(to="a@example.org", subject="s", text="t")
    smtp_server.flush()
    mail.refresh_from_db()
    assert (mail.status, mail.attempts) == (MailStatus.FAILED, len(tasks.BACKOFF_S) + 1)
    assert "ConnectionRefusedError" in mail.last_error


def test_a_permanent_refusal_fails_at_once(smtp_server):
    smtp_server.refuse_with = "550 5.1.1 No such user"
    mail = services.queue_mail(to="nobody@example.org", subject="s", text="t")
    smtp_server.flush()
    mail.refresh_from_db()
    assert (mail.status, mail.attempts, smtp_server.refused) == (MailStatus.FAILED, 1, 1)
    assert "No such user" in mail.last_error


def test_mail_user_renders_in_a_czech_players_language(smtp_server, settings):
    settings.SITE_URL = "https://club.example.org/"
    user = UserFactory(username="jana", email="jana@example.org")
    user.player.language = "cs"
    user.player.save(update_fields=["language"])
    mail = services.mail_user(user=user, template="test_mail", context={}, kind="test")
    [message] = smtp_server.wait_for(1)
    assert message["To"] == "jana@example.org"
    assert message["Subject"] == "Zkušební e-mail z webu Caravan Club"
    text = message.get_body(("plain",)).get_content()
    assert "Dobrý den, jana," in text
    assert "https://club.example.org/" in text  # the footer's link, from SITE_URL
    html = message.get_body(("html",)).get_content()
    assert '<html lang="cs">' in html and "Toto je zkušební e-mail" in html
    assert (mail.kind, mail.user) == ("test", user)


def test_mail_user_in_english_and_without_an_address(smtp_server):
    user = UserFactory(username="ann", email="ann@example.org")
    services.mail_user(user=user, template="test_mail", context={})
    [message] = smtp_server.wait_for(1)
    assert message["Subject"] == "Test mail from Caravan Club"
    assert "Hello ann," in message.get_body(("plain",)).get_content()
    assert '<html lang="en">' in message.get_body(("html",)).get_content()
    nobody = UserFactory(email="")
    assert services.mail_user(user=nobody, template="test_mail", context={}) is None
    assert not OutgoingMail.objects.filter(user=nobody).exists()
    sent_elsewhere = services.mail_user(user=nobody, template="test_mail", context={},
                                        to="other@example.org")  # fmt: skip
    assert sent_elsewhere.to == "other@example.org"


def test_plain_text_is_not_html_escaped(smtp_server):
    user = UserFactory(username="o'brien&co", email="ob@example.org")
    services.mail_user(user=user, template="test_mail", context={})
    [message] = smtp_server.wait_for(1)
    assert "Hello o'brien&co," in message.get_body(("plain",)).get_content()
    assert "o&#x27;brien&amp;co" in message.get_body(("html",)).get_content()


def test_absolute_url_joins_site_url_and_path(settings):
    settings.SITE_URL = "https://club.example.org/"
    assert absolute_url("/settings/") == "https://club.example.org/settings/"
    assert absolute_url("settings/") == "https://club.example.org/settings/"
    assert absolute_url("https://elsewhere.example/x") == "https://elsewhere.example/x"


def _stored(subject: str, *, age, status=MailStatus.QUEUED) -> OutgoingMail:
    """A mail whose task never ran (a worker gone), `age` old."""
    from django.utils import timezone

    mail = OutgoingMail.objects.create(to="a@example.org", subject=subject, text="t", status=status)
    OutgoingMail.objects.filter(pk=mail.pk).update(created_at=timezone.now() - age)
    return mail


def test_the_sweep_sends_mails_whose_task_was_lost_and_gives_up_on_old_ones(smtp_server):
    from datetime import timedelta

    lost = _stored("lost", age=timedelta(hours=4))
    recent = _stored("in its back-off", age=timedelta(minutes=30))
    ancient = _stored("too old", age=timedelta(days=3))
    assert services.requeue_lost() == (1, 1)
    assert [m["Subject"] for m in smtp_server.wait_for(1)] == ["lost"]
    statuses = dict(OutgoingMail.objects.values_list("subject", "status"))
    assert statuses == {"lost": "sent", "in its back-off": "queued", "too old": "failed"}
    ancient.refresh_from_db()
    assert "two days" in ancient.last_error
    assert recent.attempts == 0 and lost.pk


def test_staff_send_failed_mails_again_from_the_outbox(smtp_server, client):
    from datetime import timedelta

    failed = _stored("failed once", age=timedelta(hours=1), status=MailStatus.FAILED)
    sent = _stored("sent", age=timedelta(hours=1), status=MailStatus.SENT)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    answer = client.post(
        "/admin/mail/outgoingmail/",
        {"action": "send_again", "_selected_action": [failed.pk, sent.pk]},
        follow=True,
    )
    assert "1 failed mail queued again." in answer.content.decode()
    assert [m["Subject"] for m in smtp_server.wait_for(1)] == ["failed once"]
    failed.refresh_from_db()
    assert (failed.status, failed.attempts) == (MailStatus.SENT, 1)
    assert len(smtp_server.messages) == 1  # the sent one was not sent again
