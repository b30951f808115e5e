"""The mail task: thin, takes an id and calls mail.services.deliver; idempotent (a sent or
failed mail is not sent again, so a redelivered message does nothing)."""

from celery import shared_task

from mail import services

# Waits before the 2nd, 3rd, ... try: about 2 h 40 min from the first try to the last.
BACKOFF_S = (30, 120, 480, 1800, 7200)


class MailServerUnavailable(Exception):
    """The server was away or refused for now; the task is tried again later."""


@shared_task(name="mail.tasks.send_mail", bind=True, ignore_result=True, max_retries=len(BACKOFF_S))
def send_mail(self, mail_id: int) -> None:
    tries = self.request.retries
    error = services.deliver(mail_id, last_try=tries >= self.max_retries)
    if error is not None:
        raise self.retry(countdown=BACKOFF_S[tries], exc=MailServerUnavailable(error))


@shared_task(name="mail.tasks.requeue_lost_mails", ignore_result=True)
def requeue_lost_mails() -> None:
    services.requeue_lost()
