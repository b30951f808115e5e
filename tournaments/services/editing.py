"""Editing a tournament after its creation (the edit page and ``PATCH /api/tournaments/{id}/``).

- Before the start: the name, venue, description, time zone, planned start, auto-start,
  auto-advance, format, rated and the format's settings (table size, rounds, points, tie-breaks, ...),
  checked as at creation.
- After the start: what the rounds played were paired and scored with (format, table size,
  points, tie-breaks and the other settings, rated) is refused with the reason: changing it
  would rewrite the past. The name, venue, description, auto-advance, the time zone (times
  are stored in UTC: only how they are shown moves) and the number of Swiss rounds (never
  below the rounds already paired) stay editable.
- Once over (finished or cancelled): only the name, venue and description.
- Never: the game and over-the-board (the matches, results and ratings hang on them).

Every refusal is a ValidationError keyed by the setting, and nothing is changed.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext

from core import permissions
from tournaments.models import Tournament, TournamentStatus
from tournaments.services import rounds, setup, versions

TEXT = ("name", "venue", "description")
FIELDS = {*TEXT, "starts_at", "auto_start", "auto_advance", "format", "rated", "config",
          "game", "over_the_board", "time_zone"}  # fmt: skip
# The settings still editable once the first round is paired.
LIVE_SETTINGS = {"rounds"}
MAX_NAME = 120


def _refuse(field: str, message: str, code: str):
    raise ValidationError({field: ValidationError(message, code=code)})


def _label(key: str) -> str:
    if key in setup.SETTING_LABELS:
        return setup.setting_label(key)
    return {"format": gettext("Format"), "rated": gettext("Rated"), "game": gettext("Game"),
            "starts_at": gettext("Planned start"), "auto_start": gettext("Start automatically"),
            "over_the_board": gettext("Over the board")}.get(key, key)  # fmt: skip


def _changes(t: Tournament, changes: dict) -> tuple[dict, dict]:
    """The fields and the config keys that really change (the rest is sent back as is)."""
    unknown = set(changes) - FIELDS
    if unknown:
        raise ValidationError(
            gettext("Unknown settings: %(names)s.") % {"names": ", ".join(sorted(unknown))},
            code="unknown",
        )
    fields = {k: v for k, v in changes.items() if k != "config" and getattr(t, k) != v}
    config = changes.get("config") or {}
    if not isinstance(config, dict):
        _refuse("config", gettext("The settings must be an object."), "invalid")
    current = t.config or {}
    config = {k: v for k, v in config.items() if current.get(k) != v}
    return fields, config


def update_tournament(*, tournament: Tournament, by, **changes) -> Tournament:
    """Change the given fields (``config``: the settings to change, None removing one).

    Refused as a whole (ValidationError keyed by the field, nothing saved) when one change
    is not allowed now; see the module's docstring for what is when."""
    if not permissions.may_manage_tournament(by, tournament):
        raise PermissionDenied(gettext("Only the organiser can do that."))
    co_organisers = changes.pop("co_organisers", None)
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if co_organisers is not None:  # the organiser's choice, whatever the status
            from tournaments.services.organisers import set_co_organisers

            set_co_organisers(tournament=t, by=by, names=co_organisers)
        fields, config = _changes(t, changes)
        for key in ("game", "over_the_board"):
            if key in fields:
                _refuse(key, gettext("%(setting)s is fixed when the tournament is created: "
                                     "create a new tournament instead.")
                        % {"setting": _label(key)}, "fixed")  # fmt: skip
        over = t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
        started = t.status != TournamentStatus.REGISTRATION
        if over:
            for key in [*(k for k in fields if k not in TEXT), *config]:
                _refuse(key if key in fields else "config",
                        gettext("The tournament is over: only its name, venue and description "
                                "can change."), "over")  # fmt: skip
        elif started:
            for key in fields:
                if key in ("format", "rated"):
                    _refuse(key, _started_reason(key), "started")
                if key in ("starts_at", "auto_start"):
                    _refuse(key, gettext("The tournament has started: its planned start can't "
                                         "change."), "started")  # fmt: skip
            for key in config:
                if key not in LIVE_SETTINGS:
                    _refuse(key, _started_reason(key), "started")
        update = _text(t, fields)
        if "rated" in fields:
            update["rated"] = _rated(t, by, fields["rated"])
        if "auto_advance" in fields:
            if not isinstance(fields["auto_advance"], bool):
                _refuse("auto_advance", gettext("Auto advance: true or false."), "invalid")
            update["auto_advance"] = fields["auto_advance"]
        if "time_zone" in fields:  # how its times are shown: until it is over
            update["time_zone"] = setup.clean_time_zone(fields["time_zone"])
        if "format" in fields or config:
            update.update(_settings(t, fields.get("format", t.format), config))
        if "starts_at" in fields or "auto_start" in fields:
            starts_at = fields.get("starts_at", t.starts_at)
            auto_start = fields.get("auto_start", t.auto_start)
            update["starts_at"] = setup.clean_planned_start(starts_at, auto_start)
            update["auto_start"] = auto_start
            update["auto_start_failed_at"] = update["auto_start_failure"] = None
        if not update:
            return t
        for key, value in update.items():
            setattr(t, key, value)
        t.save(update_fields=list(update))
        versions.touch(t.pk)
    if (
        t.status == TournamentStatus.RUNNING
        and t.auto_advance
        and ("auto_advance" in update or "config" in update)
    ):
        # A finished round waits no longer (or, with fewer rounds, the tournament ends).
        rounds.advance_tournament(tournament_id=t.pk)
        t.refresh_from_db()
    return t


def _started_reason(key: str) -> str:
    return gettext(
        "%(setting)s can't change once the tournament has started: the rounds already "
        "paired were paired and scored with it."
    ) % {"setting": _label(key)}


def _text(t: Tournament, fields: dict) -> dict:
    update = {}
    if "name" in fields:
        name = " ".join(str(fields["name"] or "").split())
        if not name:
            _refuse("name", gettext("Give the tournament a name."), "required")
        if len(name) > MAX_NAME:
            _refuse("name", gettext("At most %(n)s characters.") % {"n": MAX_NAME}, "too_long")
        setup.check_text_field("name", name, gettext("Name"))
        update["name"] = name
    if "venue" in fields or "description" in fields:
        details, _ = setup.clean_details(
            game=t.game, venue=fields.get("venue", t.venue),
            description=fields.get("description", t.description),
        )  # fmt: skip
        update.update({k: details[k] for k in ("venue", "description") if k in fields})
    return update


def _rated(t: Tournament, by, rated) -> bool:
    if not isinstance(rated, bool):
        _refuse("rated", gettext("Rated: true or false."), "invalid")
    club = setup.event_club(t)  # a club's event: the club's verdict (rated clubs)
    allowed = setup.may_run_rated(
        by, over_the_board=t.over_the_board, club=club
    ) or setup.may_run_rated(t.organiser, over_the_board=t.over_the_board, club=club)
    if rated and not allowed and club is not None:
        _refuse("rated", gettext(
            "Over-the-board results of a club's event are rated only when the staff have "
            "marked the club rated; keep the event unrated."
        ), "rated_not_allowed")  # fmt: skip
    if rated and not allowed:
        _refuse("rated", gettext(
            "Over-the-board results are rated only for organisers with the "
            "'run rated events' permission (staff grant it); keep the event unrated."
        ), "rated_not_allowed")  # fmt: skip
    return rated


def _settings(t: Tournament, format_name: str, config: dict) -> dict:
    """The new format and config, checked as at creation (and rounds against those paired)."""
    merged = {**(t.config or {}), **config}
    merged = {k: v for k, v in merged.items() if v is not None}
    merged.setdefault("table_size", (t.config or {}).get("table_size", 2))
    setup.check_config(format_name=format_name, game=t.game, raw=merged)
    if "rounds" in config and t.status == TournamentStatus.RUNNING:
        paired = t.current_round
        if config["rounds"] is None or (config["rounds"] or 0) < paired:
            _refuse("rounds", gettext(
                "%(n)s rounds are already paired: give at least %(n)s."
            ) % {"n": paired}, "below_paired")  # fmt: skip
    return {"format": format_name, "config": merged}
