"""The tournament's edit page form: the create form's fields that may change, filled in from
the tournament; those that can't change now are shown read-only with the reason
(tournaments.services.editing decides again on the server)."""

from __future__ import annotations

import copy

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core import permissions
from core.errors import add_to_form
from tournaments import zones
from tournaments.forms import TournamentForm, ZonedTimesForm, zone_field
from tournaments.models import TournamentStatus
from tournaments.services import organisers, setup
from tournaments.tiebreak_labels import label

TEXT = ("name", "venue", "description")
SETTINGS = ("table_size", "rounds", "points", "bye_points", "tiebreaks", "double",
            "third_place", "grand_final_reset")  # fmt: skip
FIELDS = ("name", "format", *SETTINGS, "rated", "auto_advance", "time_zone", "starts_at",
          "auto_start", *TEXT[1:])  # fmt: skip


class TournamentEditForm(ZonedTimesForm):
    def __init__(self, *args, tournament, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = t = tournament
        for name in FIELDS:
            self.fields[name] = copy.deepcopy(TournamentForm.base_fields[name])
        create = TournamentForm(user=user)  # its help texts and data- attributes, per reader
        for name in FIELDS:
            self.fields[name].help_text = create.fields[name].help_text
            self.fields[name].widget.attrs = dict(create.fields[name].widget.attrs)
        self.fields["starts_at"].widget.format = "%Y-%m-%dT%H:%M"
        self.default_zone = zones.zone_name(t)
        self.fields["auto_advance"].help_text = _(
            "Pair and start the next round as soon as the last result is in."
        )
        self.fields["rated"].widget.attrs.pop("data-needs-permission", None)
        self.initial = self._initial(t)
        started = t.status != TournamentStatus.REGISTRATION
        over = t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
        if over:
            locked = [n for n in FIELDS if n not in TEXT]
            reason = _("The tournament is over: only its name, venue and description can change.")
        elif started:
            locked = [n for n in FIELDS if n not in (*TEXT, "auto_advance", "rounds", "time_zone")]
            reason = _("Fixed since the start: the rounds played were paired and scored with it.")
        else:
            locked, reason = [], ""
        club = setup.event_club(t)  # a club's event: the club's verdict (rated clubs)
        if (
            not setup.may_run_rated(user, over_the_board=t.over_the_board, club=club)
            and not t.rated
        ):
            locked.append("rated")  # no permission: said, never refused
            self.fields["rated"].help_text = (
                _("Over the board, a club's events are rated only when the staff have "
                  "verified the club (a rated club).")
                if club is not None
                else _("Over the board, results are rated only for organisers the staff trust "
                       "with rated events (ask a club admin for the 'run rated events' "
                       "permission).")
            )  # fmt: skip
        for name in locked:
            field = self.fields[name]
            field.disabled = True
            field.locked_reason = reason or field.help_text
        zone_field(self, self.default_zone)  # after the locks: a locked picker keeps its zone
        if permissions.may_choose_co_organisers(user, t):
            self.fields["co_organisers"] = forms.CharField(
                label=_("Co-organisers"), required=False, max_length=1600,
                help_text=_("User names of members who run the tournament with you (entries, "
                            "rounds, results), separated by commas."),
            )  # fmt: skip
            self.initial["co_organisers"] = ", ".join(organisers.names_of(t))
        if started and not over:
            paired = t.current_round
            self.fields["rounds"].min_value = max(paired, 1)
            self.fields["rounds"].widget.attrs["min"] = max(paired, 1)
            self.fields["rounds"].help_text = _(
                "Swiss only; not below the %(n)s rounds already paired."
            ) % {"n": paired}

    @staticmethod
    def _initial(t) -> dict:
        config = t.config or {}
        size = config.get("table_size", 2)
        points = config.get("points")  # a scheme name, a list or per size (services/setup.py)
        points = points.get(str(size)) if isinstance(points, dict) else points
        points = points if isinstance(points, list) else None
        return {
            "name": t.name, "format": t.format, "table_size": size,
            "rounds": config.get("rounds"), "bye_points": config.get("bye_points"),
            "points": ", ".join(f"{p:g}" for p in points) if points else "",
            "tiebreaks": ", ".join(label(k).name for k in config.get("tiebreaks") or []),
            "double": bool(config.get("double")), "third_place": bool(config.get("third_place")),
            "grand_final_reset": bool(config.get("grand_final_reset", True)),
            "rated": t.rated, "auto_advance": t.auto_advance, "time_zone": zones.zone_name(t),
            # In minutes, as the box holds them, in the tournament's zone: sent back
            # unchanged, it is no change.
            "starts_at": timezone.localtime(t.starts_at, zones.tournament_zone(t))
            .replace(second=0, microsecond=0) if t.starts_at else None,
            "auto_start": t.auto_start, "venue": t.venue, "description": t.description,
        }  # fmt: skip

    clean_points = TournamentForm.clean_points
    clean_tiebreaks = TournamentForm.clean_tiebreaks
    clean_time_zone = TournamentForm.clean_time_zone

    def changes(self) -> dict:
        """The service's arguments for what the organiser changed (only that)."""
        d, changed = self.cleaned_data, set(self.changed_data)
        out = {name: d[name] for name in (*TEXT, "format", "rated", "auto_advance", "time_zone")
               if name in changed}  # fmt: skip
        if changed & {"starts_at", "auto_start"}:
            out["starts_at"], out["auto_start"] = d.get("starts_at"), bool(d.get("auto_start"))
        config = {}
        for name in ("table_size", "rounds", "bye_points", "tiebreaks"):
            if name in changed:
                config[name] = d.get(name)
        for name in ("double", "third_place"):
            if name in changed:
                config[name] = True if d.get(name) else None  # unticked: the default
        if "grand_final_reset" in changed:
            double_elimination = d.get("format", self.tournament.format) == "double_elimination"
            config["grand_final_reset"] = (
                bool(d.get("grand_final_reset")) if double_elimination else None
            )
        if "points" in changed:
            size = d.get("table_size") or (self.tournament.config or {}).get("table_size", 2)
            stored = (self.tournament.config or {}).get("points")
            points = dict(stored) if isinstance(stored, dict) else {}  # a scheme / list: replaced
            if d.get("points"):
                points[str(size)] = d["points"]
            else:
                points.pop(str(size), None)
            config["points"] = points or None
        if config:
            out["config"] = config
        if "co_organisers" in changed:
            out["co_organisers"] = organisers.parse_names(d.get("co_organisers") or "")
        return out

    SERVICE_FIELDS = {"config": None, "format": "format"}

    def add_service_error(self, exc: ValidationError) -> None:
        add_to_form(self, exc, field_names=self.SERVICE_FIELDS)
