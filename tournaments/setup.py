"""Checks of what the tournament form and the create API may send beyond the format's
own config checks: which options belong to which format, and the event's details
(variant, time-control preset, venue, description, start, entry limit, check-in)."""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from tournaments import formats
from tournaments.models import FORMAT_CHOICES

MAX_ENTRY_LIMIT = 1024
MAX_VENUE = 120
MAX_DESCRIPTION = 4000

# Settings that change a format's play: given to another format they would be silently
# ignored, so they are refused (False / None are harmless and allowed everywhere).
FORMAT_ONLY = {
    "rounds": {"swiss"},
    "double": {"round_robin", "league"},
    "third_place": {"single_elimination"},
    "grand_final_reset": {"double_elimination"},
    "advance": {"single_elimination", "double_elimination"},
}


# The settings by the names the tournament form gives them (the API's keys otherwise).
SETTING_LABELS = {
    "table_size": gettext_lazy("Table size"),
    "rounds": gettext_lazy("Rounds"),
    "double": gettext_lazy("Double round robin"),
    "points": gettext_lazy("Points by place"),
    "bye_points": gettext_lazy("Points for a bye"),
    "tiebreaks": gettext_lazy("Tie-break order"),
    "third_place": gettext_lazy("Third-place match"),
    "advance": gettext_lazy("Players going through per table"),
    "grand_final_reset": gettext_lazy("Grand-final reset"),
    "min_table_size": gettext_lazy("Smallest table"),
}


def setting_label(key: str) -> str:
    return str(SETTING_LABELS.get(key, key))


def format_label(name: str) -> str:
    return str(dict(FORMAT_CHOICES).get(name, name))


def format_error_message(exc: Exception) -> str:
    """A format's complaint in the reader's language: the formats are Django-free and
    raise FormatError with a marked English template, translated here."""
    if isinstance(exc, formats.FormatError):
        return exc.translated(gettext)
    return str(exc)


def check_format_options(format_name: str, raw) -> None:
    if not isinstance(raw, dict):
        return  # the shape check says why
    for key, owners in FORMAT_ONLY.items():
        value = raw.get(key)
        if value in (None, False) or format_name in owners:
            continue
        if key == "advance" and value == 1:
            continue  # the default
        raise ValidationError(
            {
                key: gettext("%(setting)s is a setting of %(owners)s, not of %(format)s.")
                % {
                    "setting": setting_label(key),
                    "owners": " / ".join(sorted(format_label(o) for o in owners)),
                    "format": format_label(format_name),
                }
            }
        )


def clean_details(*, game: str, variant=None, time_control_preset=None, time_control=None,
                  venue: str = "", description: str = "", starts_at=None,
                  entry_limit=None, check_in: bool = False,
                  auto_start: bool = False) -> tuple[dict, dict | None]:  # fmt: skip
    """The model fields to set, and the time control to use (the preset's, if chosen)."""
    if variant is not None and variant.game != game:
        raise ValidationError({"variant": gettext("That variant is for another game.")})
    if time_control_preset is not None:
        if time_control:
            raise ValidationError(
                {"time_control": gettext("Choose a preset or your own time control, not both.")}
            )
        time_control = time_control_preset.as_dict()
    venue, description = (venue or "").strip(), (description or "").strip()
    if len(venue) > MAX_VENUE:
        raise ValidationError({"venue": gettext("At most %(n)s characters.") % {"n": MAX_VENUE}})
    if len(description) > MAX_DESCRIPTION:
        raise ValidationError(
            {"description": gettext("At most %(n)s characters.") % {"n": MAX_DESCRIPTION}}
        )
    if "\x00" in venue or "\x00" in description:
        raise ValidationError({"description": gettext("Text can't contain NUL characters.")})
    if entry_limit is not None and not (
        isinstance(entry_limit, int)
        and not isinstance(entry_limit, bool)
        and 2 <= entry_limit <= MAX_ENTRY_LIMIT
    ):
        raise ValidationError(
            {"entry_limit": gettext("From 2 to %(n)s entrants.") % {"n": MAX_ENTRY_LIMIT}}
        )
    starts_at = clean_planned_start(starts_at, auto_start)
    if not isinstance(check_in, bool):
        raise ValidationError({"check_in": gettext("Check-in: true or false.")})
    fields = {"venue": venue, "description": description, "starts_at": starts_at,
              "entry_limit": entry_limit, "check_in": check_in, "auto_start": auto_start}  # fmt: skip
    return fields, time_control


def clean_planned_start(starts_at, auto_start, *, now: datetime | None = None) -> datetime | None:
    """The planned start (aware), checked: in the future when set (a start in the past
    would either do nothing or, with auto_start, start the event at the next sweep), and
    required by auto_start. Used at creation and when the organiser changes the plan."""
    if not isinstance(auto_start, bool):
        raise ValidationError({"auto_start": gettext("auto_start must be true or false.")})
    if starts_at is None:
        if auto_start:
            raise ValidationError(
                {"auto_start": gettext("Set the planned start to start automatically.")}
            )
        return None
    if not isinstance(starts_at, datetime):
        raise ValidationError({"starts_at": gettext("Give a date and time.")})
    if timezone.is_naive(starts_at):
        starts_at = timezone.make_aware(starts_at)
    if not 2000 <= starts_at.year <= 2999:
        raise ValidationError({"starts_at": gettext("Give a date between 2000 and 2999.")})
    if starts_at <= (now or timezone.now()):
        raise ValidationError({"starts_at": gettext("The planned start must be in the future.")})
    return starts_at
