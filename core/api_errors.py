"""The API's one error body, whatever refused the request:

    {"code": "stale_ply", "detail": "a human sentence", "fields": {"seats.0.bot": ["..."]}}

``code`` is stable (for programs), ``detail`` translated (for people); ``fields`` is only
there for errors about fields of the body, keyed by their dotted path (nested objects by
name, lists by index). Set as ``REST_FRAMEWORK["EXCEPTION_HANDLER"]``: views call the
services and let a refusal propagate here.

- ``core.errors.DomainError``: its ``status_code`` and ``code``;
- Django ``ValidationError``: 400, its ``code`` when all its errors share one, else
  ``invalid``; ``message_dict`` keys become ``fields``;
- Django ``PermissionDenied`` / ``Http404``: 403 ``permission_denied`` / 404 ``not_found``;
- DRF's own exceptions (serializer errors, parse errors, authentication, throttling, ...):
  their status, code and headers (``Retry-After``, ``WWW-Authenticate``).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from core.errors import DomainError, field_messages, validation_code


def error_body(code: str, detail: str, fields: dict[str, list[str]] | None = None) -> dict:
    body = {"code": code, "detail": detail}
    if fields:
        body["fields"] = fields
    return body


def exception_handler(exc, context):
    if isinstance(exc, DomainError):
        set_rollback()
        return Response(error_body(exc.code, str(exc)), status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        set_rollback()
        general, fields = field_messages(exc)
        return Response(
            error_body(validation_code(exc), _sentence(general, fields), fields), status=400
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(*(a for a in exc.args if a))
    response = drf_exception_handler(exc, context)  # the status and headers
    if response is None:
        return None  # not an error of ours: a 500
    response.data = _api_exception_body(exc)
    return response


def _api_exception_body(exc: exceptions.APIException) -> dict:
    general: list[str] = []
    fields: dict[str, list[str]] = {}
    codes: set[str] = set()
    for path, message in _leaves(exc.detail):
        codes.add(getattr(message, "code", None) or exc.default_code)
        (fields.setdefault(path, []) if path else general).append(str(message))
    code = codes.pop() if len(codes) == 1 else exc.default_code
    return error_body(code, _sentence(general, fields), fields)


def _leaves(detail, path: str = ""):
    """(dotted path, message) of each error in DRF's nested detail; a serializer's own
    errors ("non_field_errors") belong to the serializer's path."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            key = str(key)
            inner = path if key == api_settings.NON_FIELD_ERRORS_KEY else _join(path, key)
            yield from _leaves(value, inner)
    elif isinstance(detail, list):
        if all(isinstance(item, str) for item in detail):
            for item in detail:
                yield path, item
        else:  # many=True: one (possibly empty) error object per item
            for index, item in enumerate(detail):
                yield from _leaves(item, _join(path, str(index)))
    else:
        yield path, detail


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _sentence(general: list[str], fields: dict[str, list[str]]) -> str:
    """The detail: the general messages, then each field's as "path: message"."""
    parts = list(general)
    parts += [f"{path}: {message}" for path, messages in fields.items() for message in messages]
    return " ".join(parts)
