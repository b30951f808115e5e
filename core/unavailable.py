"""A database that cannot answer gives a short 503, not a hang or a 500.

While PostgreSQL is down, getting a connection fails within the pool's 2 s time-out
(config/settings/components.py) with an OperationalError; a statement past its time-out,
a deadlock or a connection lost mid-request fail the same way. Those are passing
troubles: the visitor gets "temporarily unavailable, try again in a minute" (503 with
Retry-After), API clients the project's error body {"code": "unavailable", "detail"}.

Two ways in, for the two places the error can come from:
- `DatabaseUnavailableMiddleware.process_exception`: raised by a view (or a template it
  renders, or DRF, which passes errors that are not its own on);
- `server_error` (config/urls.py `handler500`): raised by a middleware, such as the
  session being loaded for a signed-in visitor's time zone, which Django turns into a
  500 before any other middleware sees it.

The page is rendered without the request (no context processors: they would query the
database again and wait another 2 s) and with the language the request asks for."""

from __future__ import annotations

import logging
import sys

from django.db.utils import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views import defaults

from core.api_errors import error_body

logger = logging.getLogger("core.unavailable")

DATABASE_DOWN = (OperationalError, InterfaceError)
RETRY_AFTER_S = 60
API_PREFIX = "/api/"


def unavailable_response(request, exc: BaseException) -> HttpResponse:
    logger.warning("database unavailable for %s %s: %s: %s", request.method, request.path,
                   type(exc).__name__, str(exc).strip()[:200])  # fmt: skip
    _drop_session_changes(request)
    with translation.override(translation.get_language_from_request(request)):
        detail = _("The site is temporarily unavailable. Please try again in a minute.")
        if request.path_info.startswith(API_PREFIX):
            response = JsonResponse(error_body("unavailable", detail), status=503)
        else:
            page = render_to_string("503.html", {
                "LANGUAGE_CODE": translation.get_language(), "detail": detail})  # fmt: skip
            response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    add_never_cache_headers(response)  # a proxy must not keep serving the outage
    # Logged above, in one line: not again by Django as an error with its traceback.
    response._has_been_logged = True
    return response


def _drop_session_changes(request) -> None:
    """The request failed: saving its session would wait for the database once more
    (SessionMiddleware saves a modified session on the way out)."""
    session = getattr(request, "session", None)
    if session is not None:
        session.modified = False


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, DATABASE_DOWN):
            return unavailable_response(request, exception)
        return None


def server_error(request):
    """handler500: the 503 page when the uncaught error was the database's."""
    exc = sys.exc_info()[1]
    if isinstance(exc, DATABASE_DOWN):
        return unavailable_response(request, exc)
    return defaults.server_error(request)
