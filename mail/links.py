"""Absolute links for mails (a mail has no request to build them from)."""

from django.conf import settings


def absolute_url(path: str) -> str:
    """settings.SITE_URL + path; a path that is already absolute is returned as it is."""
    if path.startswith(("http://", "https://")):
        return path
    if not path.startswith("/"):
        path = "/" + path
    return settings.SITE_URL.rstrip("/") + path
