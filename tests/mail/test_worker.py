"""Through a real Celery worker process: the mail is sent by the worker (not eagerly here),
to the SMTP server EMAIL_URL names in its environment."""

import pytest

from config.celery import app as celery_app
from config.worker_process import celery_worker, wait_for
from mail.models import MailStatus, OutgoingMail
from mail.services import queue_mail

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


def test_the_worker_sends_a_queued_mail_once(smtp_server, settings):
    celery_app.control.purge()
    settings.MAIL_SEND_EAGER = False  # the task goes through the broker to the worker
    with celery_worker():
        mail = queue_mail(to="ada@example.org", subject="Via the worker", text="x",
                          html="<p>x</p>", headers={"X-Club-Kind": "t"})  # fmt: skip
        [message] = smtp_server.wait_for(1, timeout=30)
        wait_for(lambda: OutgoingMail.objects.get(pk=mail.pk).status == MailStatus.SENT,
                 timeout=30, what="the mail marked sent")  # fmt: skip
    assert message["Subject"] == "Via the worker" and message["X-Club-Kind"] == "t"
    assert OutgoingMail.objects.get(pk=mail.pk).attempts == 1
    assert len(smtp_server.messages) == 1
