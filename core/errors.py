"""One error model for the API and the pages.

A service refuses with one of three exceptions:

- a ``DomainError`` (or subclass) for a refusal with its own HTTP status and a stable
  ``code``: a conflict (409), something missing (404), someone else's (403), ...;
- Django's ``ValidationError`` for bad input (400; its ``code`` when it has one, field
  errors keyed by field);
- Django's ``PermissionDenied`` for a caller who may not (403).

The API answers each of them through ``core.api_errors.exception_handler``; pages put them
on their form with ``add_to_form`` or in a message with ``message_of``.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError


class DomainError(Exception):
    """A refusal of the domain: ``code`` (stable, for programs), ``status_code`` (HTTP) and
    a human message (``str(exc)``, translated where it is raised)."""

    status_code = 400
    code = "domain_error"
    default_message = ""

    def __init__(self, message: str | None = None, *, code: str | None = None):
        self.message = str(message) if message is not None else str(self.default_message)
        if code is not None:
            self.code = code
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


def validation_code(exc: ValidationError, default: str = "invalid") -> str:
    """The code of a ValidationError when all its errors share one, else `default`."""
    codes = {e.code for e in _leaf_errors(exc)}
    codes.discard(None)
    return codes.pop() if len(codes) == 1 else default


def _leaf_errors(exc: ValidationError) -> list[ValidationError]:
    if hasattr(exc, "error_dict"):
        return [e for errors in exc.error_dict.values() for e in errors]
    return list(exc.error_list)


def field_messages(exc: ValidationError) -> tuple[list[str], dict[str, list[str]]]:
    """(messages not about a field, {field: messages}) of a ValidationError."""
    if not hasattr(exc, "error_dict"):
        return list(exc.messages), {}
    general: list[str] = []
    fields: dict[str, list[str]] = {}
    for name, errors in exc.error_dict.items():
        messages = ValidationError(errors).messages
        if name == NON_FIELD_ERRORS:
            general.extend(messages)
        else:
            fields[name] = messages
    return general, fields


def message_of(exc: Exception) -> str:
    """One human sentence for a DomainError, ValidationError or PermissionDenied (a page's
    flash message)."""
    if isinstance(exc, ValidationError):
        general, fields = field_messages(exc)
        return " ".join(general + [m for messages in fields.values() for m in messages])
    return str(exc)


def add_to_form(form, exc: Exception, *, field_names: Mapping[str, str] | None = None) -> None:
    """Put a service's refusal on a Django form: field errors on the visible field they
    name (a key renamed through `field_names` first), everything else above the form.

    A hidden field's errors also go above the form (templates never draw them), and a key
    that is no field of the form too (``form.add_error`` would raise on it)."""
    if isinstance(exc, (DomainError, PermissionDenied)):
        form.add_error(None, str(exc))
        return
    general, fields = field_messages(exc)
    if general:
        form.add_error(None, general)
    for key, messages in fields.items():
        name = (field_names or {}).get(key, key)
        field = form.fields.get(name)
        shown = field is not None and not field.widget.is_hidden
        form.add_error(name if shown else None, messages)
