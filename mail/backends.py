"""A file backend writing one .eml file a message (Django's filebased backend appends all
of a connection's messages to one .log file): the outbox lists them, a mail reader opens them."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.mail.backends.base import BaseEmailBackend
from django.utils import timezone


class EmlFileBackend(BaseEmailBackend):
    def __init__(self, *args, file_path: str | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        path = file_path or getattr(settings, "EMAIL_FILE_PATH", None)
        if not path:
            raise ImproperlyConfigured("EmlFileBackend needs EMAIL_FILE_PATH")
        self.file_path = Path(path)
        self.file_path.mkdir(parents=True, exist_ok=True)

    def send_messages(self, email_messages) -> int:
        sent = 0
        for message in email_messages:
            data = message.message().as_bytes(linesep="\r\n")
            stamp = timezone.now().strftime("%Y%m%d-%H%M%S-%f")
            name = f"{stamp}-{uuid.uuid4().hex[:8]}.eml"
            # Written under a temporary name and renamed: the outbox never lists half a file.
            partial = self.file_path / f".{name}.part"
            partial.write_bytes(data)
            os.replace(partial, self.file_path / name)
            sent += 1
        return sent
