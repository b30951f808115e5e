"""A real SMTP server for the tests: the `smtp_server` fixture (registered for every test
by tests/conftest.py).

An aiosmtpd server on a free local port; for the test, Django's e-mail settings point at
it and mail tasks run in the test process (settings.MAIL_SEND_EAGER: `send_mail.apply`,
retries at once, no waiting for the back-off). EMAIL_URL in the environment points at it
too, so a Celery worker the test starts (config.worker_process.celery_worker) sends there.

Mails are queued on commit. A test inside pytest-django's wrapping transaction (plain
`django_db`) never commits: `wait_for` and `messages` first send the mails queued so far
(the pending on-commit callbacks of mail.services), as the commit would have.

    def test_x(smtp_server):
        queue_mail(to="a@example.org", subject="Hi", text="Hello")
        [message] = smtp_server.wait_for(1)
        assert message["Subject"] == "Hi"

`smtp_server.refuse_with = "451 4.3.0 Try again later"` makes the server refuse every
mail's data with that reply until set back to None.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class _Handler:
    def __init__(self, server: SMTPTestServer) -> None:
        self.server = server

    async def handle_DATA(self, smtp, session, envelope):  # noqa: N802 (aiosmtpd's name)
        refusal = self.server.refuse_with
        if refusal:
            self.server.refused += 1
            return refusal
        message = message_from_bytes(envelope.original_content or envelope.content,
                                     policy=policy.default)  # fmt: skip
        with self.server._changed:
            self.server._messages.append(message)
            self.server.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
            self.server._changed.notify_all()
        return "250 OK"


class SMTPTestServer:
    def __init__(self) -> None:
        self.host = "127.0.0.1"
        self.port = 0
        self.refuse_with: str | None = None
        self.refused = 0  # DATA commands refused with `refuse_with`
        self.envelopes: list[tuple[str, list[str]]] = []  # (MAIL FROM, RCPT TOs) per message
        self._messages: list[EmailMessage] = []
        self._changed = threading.Condition()
        self._controller = None

    def start(self) -> None:
        from aiosmtpd.controller import Controller

        for _ in range(5):  # a port found free may be taken before the server binds it
            port = _free_port()
            controller = Controller(_Handler(self), hostname=self.host, port=port)
            try:
                controller.start()
            except (OSError, RuntimeError):
                continue
            self._controller, self.port = controller, port
            return
        raise RuntimeError("no free port for the test SMTP server")

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()

    @property
    def url(self) -> str:
        return f"smtp://{self.host}:{self.port}"

    def flush(self) -> None:
        """Send the mails whose on-commit callbacks are still pending (see the module)."""
        from django.db import connections

        from mail.services import SendAfterCommit

        for connection in connections.all(initialized_only=True):
            pending = [e for e in connection.run_on_commit if isinstance(e[1], SendAfterCommit)]
            connection.run_on_commit[:] = [
                e for e in connection.run_on_commit if not isinstance(e[1], SendAfterCommit)
            ]
            for _, callback, _ in pending:
                callback()

    @property
    def messages(self) -> list[EmailMessage]:
        self.flush()
        with self._changed:
            return list(self._messages)

    def wait_for(self, n: int, timeout: float = 10) -> list[EmailMessage]:
        """The messages received, once there are at least `n` (AssertionError after
        `timeout` seconds)."""
        self.flush()
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self._messages) < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"expected {n} mail(s) at the test SMTP server, got {len(self._messages)}"
                    )
                self._changed.wait(left)
            return list(self._messages)


@pytest.fixture
def smtp_server(settings, monkeypatch):
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd: a line a command
    server = SMTPTestServer()
    server.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = server.host, server.port
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 5
    settings.MAIL_SEND_EAGER = True
    monkeypatch.setenv("EMAIL_URL", server.url)  # for worker processes the test starts
    try:
        yield server
    finally:
        server.stop()
