"""Setting a tournament up: its settings checked against its format and game (which options
belong to which format, the event's details: variant, time-control preset, venue,
description, start, entry limit, check-in), who may run it rated, and its creation."""

from __future__ import annotations

import secrets
from datetime import datetime
from importlib import import_module

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from core import names, timezones
from games import selectors as game_selectors
from games import services as game_services
from games.engines.base import InvalidOptions
from tournaments import format_rows, formats, zones
from tournaments.models import FORMAT_CHOICES, Tournament

MAX_ENTRY_LIMIT = 1024


MAX_VENUE = 120


MAX_DESCRIPTION = 4000


# Settings that change a format's play: given to another format they would be silently
# ignored, so they are refused (False / None are harmless and allowed everywhere).
FORMAT_ONLY = {
    "rounds": {"swiss"},
    "seeding": {"swiss"},
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
    "seeding": gettext_lazy("Round-1 seeding"),
}


CONFIG_KEYS = {
    "table_size", "rounds", "double", "points", "bye_points", "tiebreaks", "third_place",
    "advance", "grand_final_reset", "min_table_size", "seeding",
}  # fmt: skip


# Kept in the config but not the format's: the room's table names
# (tournaments.services.table_names checks them), passed over here.
EVENT_KEYS = {"table_names"}


# Server limits on tournament settings (documented in the README).
MAX_ROUNDS = 100  # Swiss rounds


MAX_ROUND_DAYS = 365  # league: days per round


MAX_SEED = 2**31 - 1  # tournament and entry seeds


MAX_POINTS = 10**6  # points for a place or a bye


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value) -> bool:
    return (_whole(value) or isinstance(value, float)) and abs(value) <= MAX_POINTS


def _config_values(raw) -> dict:
    """The stored settings as format values, every shape checked (ValidationError keyed by
    the setting that is wrong, "config" for the whole): a config is data from a form, the
    API or an old row."""
    if not isinstance(raw, dict):
        raise ValidationError({"config": gettext("The settings must be an object.")})
    raw = {k: v for k, v in raw.items() if k not in EVENT_KEYS}
    unknown = set(raw) - CONFIG_KEYS
    if unknown:
        raise ValidationError(
            {"config": gettext("Unknown settings: %(names)s.")
             % {"names": ", ".join(sorted(map(str, unknown)))}}
        )  # fmt: skip
    values = {k: v for k, v in raw.items() if v is not None}
    whole = gettext("%(setting)s: a whole number from %(low)s to %(high)s.")
    for key in ("table_size", "advance", "min_table_size"):
        if key in values and not (_whole(values[key]) and 1 <= values[key] <= 5):
            raise ValidationError(
                {key: whole % {"setting": setting_label(key), "low": 1, "high": 5}}
            )
    if "table_size" in raw and raw["table_size"] is None:
        raise ValidationError(
            {"table_size": whole % {"setting": setting_label("table_size"), "low": 1, "high": 5}}
        )
    if "rounds" in values and not (
        _whole(values["rounds"]) and 1 <= values["rounds"] <= MAX_ROUNDS
    ):
        raise ValidationError(
            {"rounds": whole % {"setting": setting_label("rounds"), "low": 1, "high": MAX_ROUNDS}}
        )
    for key in ("double", "third_place", "grand_final_reset"):
        if key in values and not isinstance(values[key], bool):
            raise ValidationError(
                {key: gettext("%(setting)s: true or false.") % {"setting": setting_label(key)}}
            )
    if "bye_points" in values and not (_number(values["bye_points"]) and values["bye_points"] >= 0):
        raise ValidationError(
            {"bye_points": gettext("%(setting)s: a number from 0 to %(high)s.")
             % {"setting": setting_label("bye_points"), "high": MAX_POINTS}}
        )  # fmt: skip
    if "seeding" in values and values["seeding"] not in formats.types.SEEDINGS:
        raise ValidationError(
            {"seeding": gettext("%(setting)s: %(names)s.")
             % {"setting": setting_label("seeding"), "names": " / ".join(formats.types.SEEDINGS)}}
        )  # fmt: skip
    if isinstance(values.get("points"), str):  # a named scheme (formats/points.py)
        if values["points"] not in formats.points.POINT_SCHEMES:
            raise ValidationError(
                {"points": gettext("%(setting)s: %(name)s is not a scheme; use one of %(names)s.")
                 % {"setting": setting_label("points"), "name": repr(values["points"]),
                    "names": ", ".join(formats.points.POINT_SCHEMES)}}
            )  # fmt: skip
        values["points_scheme"] = values.pop("points")
    if isinstance(values.get("points"), list | tuple):  # the configured size's scale
        values["points"] = {str(values.get("table_size", 2)): values["points"]}
    if "points" in values:
        points = values["points"]
        if not isinstance(points, dict):
            raise ValidationError(
                {"points": gettext(
                    "%(setting)s: points per place, table sizes with points per place "
                    "(e.g. %(example)s) or a scheme (%(names)s)."
                ) % {"setting": setting_label("points"), "example": '{"3": [2, 1, 0]}',
                     "names": ", ".join(formats.points.POINT_SCHEMES)}}
            )  # fmt: skip
        converted = {}
        for size, places in points.items():
            if not (str(size).isascii() and str(size).isdigit() and len(str(size)) == 1):
                raise ValidationError(
                    {"points": gettext("%(setting)s: %(size)s is not a table size.")
                     % {"setting": setting_label("points"), "size": repr(size)}}
                )  # fmt: skip
            if not (isinstance(places, list | tuple) and all(_number(p) for p in places)):
                raise ValidationError(
                    {"points": gettext("%(setting)s for %(size)s seats: a list of numbers.")
                     % {"setting": setting_label("points"), "size": size}}
                )  # fmt: skip
            converted[int(size)] = tuple(places)
        values["points"] = converted
    if "tiebreaks" in values:
        names = values["tiebreaks"]
        if not (isinstance(names, list | tuple) and all(isinstance(n, str) for n in names)):
            raise ValidationError(
                {"tiebreaks": gettext("%(setting)s: a list of tie-break names.")
                 % {"setting": setting_label("tiebreaks")}}
            )  # fmt: skip
        values["tiebreaks"] = tuple(names)
    return values


def check_config(*, format_name: str, game: str, raw) -> formats.Config:
    """The format's own verdict on a config (ValidationError keyed by the setting at fault,
    "config" when no one setting is): shapes and ranges, the table size the game seats,
    and the format's checks."""
    if format_name not in formats.FORMATS:
        raise ValidationError(
            {"config": gettext("Unknown format %(name)s.") % {"name": repr(format_name)}}
        )
    engine = game_selectors.engine_for(game, field="config")
    check_format_options(format_name, raw)
    config = formats.Config(**_config_values(raw))
    if not engine.min_players <= config.table_size <= engine.max_players:
        raise ValidationError(
            {"table_size": gettext("%(game)s tables seat %(min)s to %(max)s players.")
             % {"game": gettext(engine.title), "min": engine.min_players,
                "max": engine.max_players}}
        )  # fmt: skip
    # The checks a format makes before it starts, with enough stand-in entrants to pass the
    # count (the real ones are checked again at the start).
    stand_ins = [formats.Entrant(id=i) for i in range(1, 2 * formats.types.MAX_TABLE_SIZE + 1)]
    try:
        formats.FORMATS[format_name](config).validate(stand_ins)
    except (formats.FormatError, TypeError, ValueError) as exc:
        setting = getattr(exc, "setting", None) or "config"
        raise ValidationError({setting: format_error_message(exc)}) from None
    return config


RATED_PERMISSION = "tournaments.run_rated_events"


def club_hooks():
    """The module settings.TOURNAMENT_CLUB_HOOKS names (clubs.hooks), or None without one:
    tournaments never imports clubs (docs/architecture.md, "Who may import whom")."""
    path = getattr(settings, "TOURNAMENT_CLUB_HOOKS", None)
    return import_module(path) if path else None


def event_club(tournament):
    """The club `tournament` belongs to, through the reverse accessor ``club_event`` (a
    missing one is remembered on the instance), or None."""
    if tournament is None or tournament.pk is None:
        return None
    try:
        return tournament.club_event.club
    except ObjectDoesNotExist:
        return None


def may_run_rated(organiser, *, over_the_board: bool, club=None) -> bool:
    """Typed-in results are rated only for organisers staff trust: anyone else could type
    in any score. A club's event: the club's verdict (staff mark a club rated; its owner and
    organisers, who all manage its events, then run them rated). Without a club: the
    per-user permission. Online tables are rated by their matches' own rules."""
    if not over_the_board:
        return True
    if club is not None:
        hooks = club_hooks()
        return bool(hooks and organiser is not None and hooks.may_run_rated(organiser, club))
    return organiser is not None and organiser.has_perm(RATED_PERMISSION)


def _rated_allowed(*, organiser, over_the_board: bool, rated: bool | None, club=None) -> bool:
    allowed = may_run_rated(organiser, over_the_board=over_the_board, club=club)
    if rated is None:
        return allowed
    if rated and not allowed and club is not None:
        raise ValidationError({"rated": gettext(
            "Over-the-board results of a club's event are rated only when the staff have "
            "marked the club rated; create the event unrated."
        )})  # fmt: skip
    if rated and not allowed:
        raise ValidationError({"rated": gettext(
            "Over-the-board results are rated only for organisers with the "
            "'run rated events' permission (staff grant it); create the event unrated."
        )})  # fmt: skip
    return rated


def _event_club(organiser, club, members_only):
    """The club an event is created for (its slug, checked by the hook: only the club's
    owner and organisers may add events to it), or None."""
    if not isinstance(members_only, bool):
        raise ValidationError({"members_only": gettext("Members only: true or false.")})
    if club in (None, ""):
        if members_only:
            raise ValidationError({"members_only": gettext(
                "Only a club's event can be for its members only: choose the club."
            )})  # fmt: skip
        return None
    hooks = club_hooks()
    if hooks is None or not isinstance(club, str):
        raise ValidationError({"club": gettext("No such club.")})
    return hooks.club_for_event(organiser, club)


def create_tournament(
    *, name: str, game: str, format: str, organiser=None, config: dict | None = None,
    options: dict | None = None, variant=None, time_control: dict | None = None,
    timeout_policy: str = "auto", rated: bool | None = None, over_the_board: bool = False,
    auto_advance: bool = True, round_days: int | None = None, seed: int | None = None,
    time_zone: str = "", club: str | None = None, members_only: bool = False, **details,
) -> Tournament:  # fmt: skip
    """``rated=None``: rated when the organiser may run it rated (see ``may_run_rated``).
    ``club``: the slug of the club the event belongs to (its owner or an organiser only);
    ``members_only``: then only the club's members enter.
    ``time_zone``: the event's (tournaments.zones); blank: the organiser's saved zone, else
    the site's. ``details``: variant-free extras checked by clean_details (venue,
    description, starts_at, auto_start, entry_limit, check_in, time_control_preset)."""
    check_text_field("name", name, gettext("Name"))
    time_zone = clean_time_zone(time_zone) or zones.default_zone(organiser)
    details, time_control = clean_details(game=game, variant=variant, time_control=time_control,
                                          **details)  # fmt: skip
    club = _event_club(organiser, club, members_only)
    rated = _rated_allowed(
        organiser=organiser, over_the_board=over_the_board, rated=rated, club=club
    )
    engine = game_selectors.engine_for(game)
    if format not in formats.FORMATS:
        raise ValidationError(
            {
                "format": gettext("Use one of %(names)s.")
                % {"names": ", ".join(sorted(formats.FORMATS))}
            }
        )
    try:
        options = engine.validate_options(
            {**(variant.options if variant else {}), **(options or {})}
        )
    except InvalidOptions as exc:
        raise ValidationError({"options": str(exc)}) from None
    tc = game_services.match_checks.time_control_fields(time_control)
    if round_days is not None and not (_whole(round_days) and 1 <= round_days <= MAX_ROUND_DAYS):
        raise ValidationError(
            {"round_days": gettext("From 1 to %(n)s days.") % {"n": MAX_ROUND_DAYS}}
        )
    if seed is not None and not (_whole(seed) and 0 <= seed <= MAX_SEED):
        raise ValidationError(
            {"seed": gettext("A whole number from 0 to %(max)s.") % {"max": MAX_SEED}}
        )
    tournament = Tournament(
        name=name, game=game, format=format, organiser=organiser, config=config or {},
        options=options, variant=variant, timeout_policy=timeout_policy, rated=rated,
        over_the_board=over_the_board, auto_advance=auto_advance, round_days=round_days,
        seed=secrets.randbits(31) if seed is None else seed, time_zone=time_zone, **tc,
        **details,
    )  # fmt: skip
    format_rows.format_config(tournament)
    with transaction.atomic():
        tournament.save()
        if club is not None:
            club_hooks().attach(tournament, club, members_only=members_only)
    return tournament


def clean_time_zone(name) -> str:
    """A tournament's zone as given ("" for the default), or a ValidationError keyed
    ``time_zone`` (core.timezones.check_zone, as a player's zone is checked)."""
    if not isinstance(name, str):
        raise ValidationError({"time_zone": gettext("Give a time zone name.")})
    try:
        return timezones.check_zone(name.strip())
    except ValidationError as exc:
        raise ValidationError({"time_zone": exc.messages}) from None


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
    check_text_field("venue", venue, gettext("Venue"))
    check_text_field("description", description, gettext("Description"), multiline=True)
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


def check_text_field(field: str, value, label, *, multiline: bool = False) -> None:
    """No control or bidi characters in a tournament's text (core.names), else a
    ValidationError on `field`: "a\u202elice" would show its letters reordered."""
    try:
        names.check_text(value if isinstance(value, str) else "", field_label=label,
                         multiline=multiline)  # fmt: skip
    except ValidationError as exc:
        raise ValidationError({field: exc}) from None


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
