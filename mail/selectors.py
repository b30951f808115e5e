"""Reads for the outbox (admin) and the operations page."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from mail.models import MailStatus, OutgoingMail

# A mail normally leaves within seconds; queued longer, the server keeps refusing (it is
# being retried, see last_error) or no worker runs the task.
QUEUED_TOO_LONG = timedelta(minutes=10)
ROWS_SHOWN = 20
FILES_SHOWN = 200
FILE_NAME = re.compile(r"^[\w.-]+\.eml$")  # what mail.backends.EmlFileBackend writes


@dataclass
class MailReport:
    failed_count: int
    late_count: int
    late_after_min: int
    rows: list[OutgoingMail] = field(default_factory=list)  # failed and late, newest first


def mail_report(now: datetime | None = None) -> MailReport:
    """Failed mails and mails queued for longer than QUEUED_TOO_LONG, with their errors."""
    now = now or timezone.now()
    failed = OutgoingMail.objects.filter(status=MailStatus.FAILED)
    late = OutgoingMail.objects.filter(
        status=MailStatus.QUEUED, created_at__lt=now - QUEUED_TOO_LONG
    )
    rows = list(
        (failed | late)
        .only("id", "to", "subject", "kind", "status", "attempts", "last_error", "created_at")
        .order_by("-created_at", "-id")[:ROWS_SHOWN]
    )
    return MailReport(
        failed_count=failed.count(),
        late_count=late.count(),
        late_after_min=int(QUEUED_TOO_LONG.total_seconds() // 60),
        rows=rows,
    )


def uses_file_backend() -> bool:
    return settings.EMAIL_BACKEND == "mail.backends.EmlFileBackend"


@dataclass
class MailFile:
    name: str
    size: int
    modified: datetime


def mail_folder() -> Path:
    return Path(settings.EMAIL_FILE_PATH)


def mail_files(limit: int = FILES_SHOWN) -> list[MailFile]:
    """The .eml files the file backend wrote, newest first."""
    folder = mail_folder()
    if not folder.is_dir():
        return []
    found = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if FILE_NAME.match(entry.name) and entry.is_file():
                stat = entry.stat()
                found.append((stat.st_mtime_ns, entry.name, stat.st_size))
    found.sort(reverse=True)
    tz = timezone.get_current_timezone()
    return [
        MailFile(name, size, datetime.fromtimestamp(mtime / 1e9, tz=tz))
        for mtime, name, size in found[:limit]
    ]


def mail_file_text(name: str) -> str | None:
    """One file's text, or None for a name that is not one of the backend's files."""
    if not FILE_NAME.match(name):
        return None
    path = mail_folder() / name
    if not path.is_file():
        return None
    return path.read_bytes().decode("utf-8", errors="replace")
