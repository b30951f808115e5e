"""Named tables ("Table 3 — by the window"): the organiser names table numbers once per
tournament; the name shows wherever the number does (tournament page, table page, print
views, projector, exports).

Stored in ``Tournament.config["table_names"]`` as ``{"3": "by the window"}`` (JSON keys are
strings); not a format setting (``setup.EVENT_KEYS``). Table numbers 1 to ``MAX_TABLES``,
names up to ``MAX_NAME`` characters; a blank name removes the number's name. Reading is
forgiving (``names_of``): a stored value of the wrong shape is skipped, never an error,
since a row may have been written by hand or through the API's free config.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext

from core import permissions
from tournaments.models import Tournament
from tournaments.services import versions

KEY = "table_names"
MAX_TABLES = 500
MAX_NAME = 60


def names_of(tournament: Tournament) -> dict[int, str]:
    """Table number -> name, only the well-formed entries."""
    config = tournament.config
    raw = config.get(KEY) if isinstance(config, dict) else None  # a stored non-object config
    if not isinstance(raw, dict):
        return {}
    out = {}
    for number, name in raw.items():
        text = str(number)
        number_ok = text.isascii() and text.isdigit() and 1 <= int(text) <= MAX_TABLES
        if number_ok and isinstance(name, str) and name.strip():
            out[int(text)] = name.strip()[:MAX_NAME]
    return dict(sorted(out.items()))


def name_of(tournament: Tournament, number: int) -> str:
    return names_of(tournament).get(number, "")


def clean(raw) -> dict[int, str]:
    """Checked names from a mapping of table number -> name (numbers as int or digit
    strings); blank names dropped. ValidationError (code ``table_number`` or
    ``table_name_too_long``) naming the first wrong entry."""
    if not isinstance(raw, dict):
        raise ValidationError(
            gettext("Table names: table numbers with their names, e.g. %(example)s.")
            % {"example": '{"3": "by the window"}'},
            code="table_names",
        )
    out: dict[int, str] = {}
    for number, name in raw.items():
        text = str(number).strip()
        if (
            isinstance(number, bool)
            or not (text.isascii() and text.isdigit())
            or not (1 <= int(text) <= MAX_TABLES)
        ):
            raise ValidationError(
                gettext("Table %(number)s: a table number is a whole number from 1 to %(max)s.")
                % {"number": text[:10], "max": MAX_TABLES},
                code="table_number",
            )
        if name is None:
            name = ""
        if not isinstance(name, str):
            raise ValidationError(
                gettext("Table %(number)s: the name must be text.") % {"number": int(text)},
                code="table_name",
            )
        name = " ".join(name.split())  # one line: it shows on cards and paper
        if len(name) > MAX_NAME:
            raise ValidationError(
                gettext("Table %(number)s: a name has at most %(max)s characters.")
                % {"number": int(text), "max": MAX_NAME},
                code="table_name_too_long",
            )
        if name:
            out[int(text)] = name
    return dict(sorted(out.items()))


def parse_lines(text: str) -> dict[str, str]:
    """The organiser's form: one table a line, "3: by the window" (or "3 = ..." or
    "3 by the window"); blank lines skipped. ValidationError (code ``table_line``) for a
    line that does not start with a number; the numbers and names are checked by ``clean``."""
    out: dict[str, str] = {}
    for line in (text or "").splitlines():
        line = line.strip()
        if not line:
            continue
        digits = len(line) - len(line.lstrip("0123456789"))
        if digits == 0:
            raise ValidationError(
                gettext('"%(line)s": start the line with the table number, e.g. %(example)s.')
                % {"line": line[:40], "example": "3: by the window"},
                code="table_line",
            )
        number, rest = line[:digits], line[digits:].strip()
        if rest[:1] in (":", "=", "-", "–", "—", "."):
            rest = rest[1:].strip()
        out[number] = rest
    return out


def as_lines(names: dict[int, str]) -> str:
    """The names as the form shows them back."""
    return "\n".join(f"{number}: {name}" for number, name in sorted(names.items()))


def set_table_names(*, tournament: Tournament, names, by) -> dict[int, str]:
    """Replace the tournament's table names (``names``: table number -> name, see ``clean``).
    The organiser only; any time (a room changes during an event)."""
    if not permissions.may_manage_tournament(by, tournament):
        raise PermissionDenied(gettext("Only the organiser can do that."))
    cleaned = clean(names)
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        config = dict(t.config or {})
        if cleaned:
            config[KEY] = {str(number): name for number, name in cleaned.items()}
        else:
            config.pop(KEY, None)
        t.config = config
        t.save(update_fields=["config"])
        versions.touch(t.pk)
    tournament.config = config
    return cleaned
