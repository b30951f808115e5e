import zoneinfo

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from core.errors import add_to_form
from core.timezones import zone_choices
from games.engines.registry import ENGINES
from games.forms import VariantSelect
from games.models import Player, TimeControl, Variant
from games.models.players import fold_name
from games.time_limits import MAX_DECISION_S
from tournaments import zones
from tournaments.formats.types import TIEBREAKS
from tournaments.models import FORMAT_CHOICES
from tournaments.services.entrants import link_target, member_candidates
from tournaments.services.setup import (
    MAX_DESCRIPTION,
    MAX_ENTRY_LIMIT,
    MAX_POINTS,
    MAX_ROUND_DAYS,
    MAX_ROUNDS,
    MAX_VENUE,
    check_config,
    clean_planned_start,
    club_hooks,
    may_run_rated,
)
from tournaments.tiebreak_labels import label


class ZonedTimesForm(forms.Form):
    """A form whose times are typed and shown in a tournament's zone: the one it was sent
    with, else ``default_zone`` (set by the subclass)."""

    default_zone: str = ""

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return form_zone(self, self.default_zone)

    def full_clean(self):
        # Typed-in times are read in that zone; changed_data compares in it too.
        with timezone.override(self.zone):
            super().full_clean()
            if self.is_bound:
                self.changed_data  # noqa: B018 (cached now, in the zone)


class TournamentForm(ZonedTimesForm):
    name = forms.CharField(max_length=120, label=_("Name"))
    game = forms.ChoiceField(choices=[], label=_("Game"))
    format = forms.ChoiceField(choices=FORMAT_CHOICES, label=_("Format"))
    table_size = forms.IntegerField(min_value=2, max_value=5, initial=2, label=_("Table size"))
    rounds = forms.IntegerField(
        min_value=1,
        max_value=MAX_ROUNDS,
        required=False,
        label=_("Rounds"),
        help_text=_("Swiss only; blank: automatic."),
    )
    per_move_s = forms.IntegerField(
        min_value=1, max_value=MAX_DECISION_S, required=False, label=_("Seconds per decision"),
        help_text=_("At most a week."),
    )  # fmt: skip
    over_the_board = forms.BooleanField(
        required=False,
        label=_("Over the board"),
        help_text=_("Played at the club; you enter results."),
    )
    round_days = forms.IntegerField(
        min_value=1,
        max_value=MAX_ROUND_DAYS,
        required=False,
        label=_("Days per round"),
        help_text=_("League: days per round."),
    )
    rated = forms.BooleanField(required=False, initial=True, label=_("Rated"))
    auto_advance = forms.BooleanField(
        required=False, initial=True, label=_("Auto advance"),
        help_text=_("Pair and start the next round as soon as the last result is in. "
                    "Left as it is: on online, off over the board."),
    )  # fmt: skip
    # What the page showed in these boxes ("1"/"0"): a box sent back as shown was left
    # alone and follows "over the board" (static/js/tournament-form.js flips it at once).
    auto_advance_shown = forms.CharField(required=False, initial="1", widget=forms.HiddenInput)
    rated_shown = forms.CharField(required=False, initial="1", widget=forms.HiddenInput)
    # Event details and format options (tournaments.services.setup checks them again in the service;
    # static/js/format-options.js shows only the options of the chosen format).
    variant = forms.ModelChoiceField(
        queryset=Variant.objects.all(), required=False, label=_("Variant"), widget=VariantSelect,
        empty_label=_("Standard rules"),
    )  # fmt: skip
    time_control_preset = forms.ModelChoiceField(
        queryset=TimeControl.objects.all(), required=False, label=_("Time control preset"),
        empty_label=_("No preset"), help_text=_("Instead of seconds per decision."),
    )  # fmt: skip
    double = forms.BooleanField(
        required=False, label=_("Double round robin"), help_text=_("Everyone meets twice.")
    )
    seeding = forms.ChoiceField(
        required=False, label=_("Round 1"), initial="snake",
        choices=[("snake", _("Spread the seeds by rating (snake)")),
                 ("random", _("Random (with the tournament's seed)"))],
        help_text=_("How round 1 seats the players; later rounds follow the points."),
    )  # fmt: skip
    points = forms.CharField(
        required=False, max_length=100, label=_("Points by place"),
        help_text=_("One number per place, best first, e.g. 3, 1, 0. Blank: the default."),
    )  # fmt: skip
    bye_points = forms.FloatField(
        required=False, min_value=0, max_value=MAX_POINTS, label=_("Points for a bye")
    )
    tiebreaks = forms.CharField(
        required=False, max_length=200, label=_("Tie-break order"),
    )  # fmt: skip
    third_place = forms.BooleanField(required=False, label=_("Third-place match"))
    grand_final_reset = forms.BooleanField(
        required=False, initial=True, label=_("Grand-final reset"),
        help_text=_("A second final if the losers' bracket finalist wins the first."),
    )  # fmt: skip
    # The event's zone (tournaments.zones): its times are typed and shown in it; blank: the
    # organiser's saved zone, else the site's.
    time_zone = forms.ChoiceField(
        required=False, label=_("Time zone"),
        help_text=_("All the tournament's times are shown and typed in this zone, wherever "
                    "the reader is."),
    )  # fmt: skip
    starts_at = forms.DateTimeField(
        required=False, label=_("Starts"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )  # fmt: skip
    auto_start = forms.BooleanField(
        required=False, label=_("Start automatically"),
        help_text=_("At the planned start, as if you pressed Start (check-in and the "
                    "minimum number of entrants apply)."),
    )  # fmt: skip
    venue = forms.CharField(required=False, max_length=MAX_VENUE, label=_("Venue"))
    description = forms.CharField(
        required=False, max_length=MAX_DESCRIPTION, label=_("Description"),
        widget=forms.Textarea(attrs={"rows": 3}),
    )  # fmt: skip
    entry_limit = forms.IntegerField(
        required=False, min_value=2, max_value=MAX_ENTRY_LIMIT, label=_("Entry limit"),
        help_text=_("Blank: no limit."),
    )  # fmt: skip
    check_in = forms.BooleanField(
        required=False, label=_("Check-in"),
        help_text=_("Only entrants who check in before the start are paired."),
    )  # fmt: skip
    # A club's event (settings.TOURNAMENT_CLUB_HOOKS): the clubs the user runs, only shown
    # to their owners and organisers.
    club = forms.ChoiceField(
        required=False, label=_("Club"),
        help_text=_("An event of your club: its organisers all manage it."),
    )  # fmt: skip
    members_only = forms.BooleanField(
        required=False, label=_("Club members only"),
        help_text=_("Only the club's members may enter (its organisers may type in guests)."),
    )  # fmt: skip

    # Which format each option belongs to (data-formats on its row; the JS reads it).
    FORMAT_FIELDS = {
        "rounds": "swiss",
        "seeding": "swiss",
        "double": "round_robin league",
        "round_days": "league",
        "third_place": "single_elimination",
        "grand_final_reset": "double_elimination",
        "points": "swiss round_robin league",
        "bye_points": "swiss round_robin league",
        "tiebreaks": "swiss round_robin league",
    }

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.may_rate_club_events = user is not None and may_run_rated(user, over_the_board=True)
        self._club_fields(user)
        if not self.may_rate_club_events and not self.rated_clubs:
            # No refusal: over the board the event is simply unrated (the JS hides the box).
            self.fields["rated"].help_text = _(
                "Over the board, only organisers the staff trust with rated events run them "
                "rated (ask a club admin for the 'run rated events' permission); yours is "
                "then unrated."
            )
            self.fields["rated"].widget.attrs["data-needs-permission"] = ""
        if "club" in self.fields:
            rated = ", ".join(name for slug, name in self.fields["club"].choices
                              if slug in self.rated_clubs)  # fmt: skip
            self.fields["rated"].help_text = " ".join(filter(None, [
                str(self.fields["rated"].help_text),
                str(_("Over the board, a club's event is rated only when the staff have marked "
                      "the club rated (yours: %(clubs)s).") % {"clubs": rated}) if rated else
                str(_("Over the board, a club's event is rated only when the staff have marked "
                      "the club rated; none of yours is.")),
            ]))  # fmt: skip
        self.fields["over_the_board"].widget.attrs["data-over-the-board"] = ""
        for name in self.FOLLOW_BOARD:
            self.fields[name].widget.attrs["data-follows-board"] = name + "_shown"
        if self.is_bound:
            self.data = self.data.copy()  # clean() writes back what the boxes come to
        self.fields["game"].choices = [(slug, _(e.title)) for slug, e in sorted(ENGINES.items())]
        # Here, not on the class: the reader's language is known only now.
        self.fields["tiebreaks"].help_text = _(
            "Comma-separated, first decides first: %(names)s."
        ) % {"names": ", ".join(label(key).name for key in TIEBREAKS)}
        self.default_zone = zones.default_zone(user)
        zone_field(self, self.default_zone)
        for name, owners in self.FORMAT_FIELDS.items():
            self.fields[name].widget.attrs["data-formats"] = owners
        self.fields["format"].widget.attrs["data-format-select"] = ""
        self.fields["game"].widget.attrs["data-game-select"] = ""
        self.fields["variant"].label_from_instance = _variant_label
        self.fields["variant"].widget.attrs["data-game-options"] = ""

    def _club_fields(self, user) -> None:
        """The club picker, with the clubs the user runs (none: no picker); which of them
        run rated events (tournaments.services.setup.may_run_rated asks the hook)."""
        hooks = club_hooks()
        clubs = hooks.organised_clubs(user) if hooks and user is not None else []
        self.rated_clubs = {c.slug for c in clubs
                            if may_run_rated(user, over_the_board=True, club=c)}  # fmt: skip
        if not clubs:
            del self.fields["club"], self.fields["members_only"]
            return
        self.fields["club"].choices = [("", _("No club")), *((c.slug, c.name) for c in clubs)]

    def _may_rate(self, data: dict) -> bool:
        club = data.get("club")
        return club in self.rated_clubs if club else self.may_rate_club_events

    def clean_time_zone(self):
        return self.cleaned_data.get("time_zone") or self.default_zone

    def clean_points(self):
        text = self.cleaned_data.get("points", "").strip()
        if not text:
            return None
        try:
            values = [float(p) for p in text.replace(";", ",").split(",")]
        except ValueError:
            raise forms.ValidationError(_("Give numbers separated by commas.")) from None
        if any(not (abs(v) <= MAX_POINTS) for v in values):  # also NaN
            raise forms.ValidationError(_("Points are numbers up to %(n)s.") % {"n": MAX_POINTS})
        return [int(v) if v.is_integer() else v for v in values]

    def clean_tiebreaks(self):
        text = self.cleaned_data.get("tiebreaks", "").strip()
        if not text:
            return None

        # The names as shown (in the reader's language) or the keys the API takes.
        def folded(name: str) -> str:
            return " ".join(
                fold_name(name.replace("–", "-")).replace("-", " ").replace("_", " ").split()
            )

        known = {}
        for key in TIEBREAKS:
            for shown in (key, key.replace("_", " "), str(_(key)), label(key).name):
                known[folded(shown)] = key
        names = []
        for typed in text.split(","):
            names.append(known.get(folded(typed.strip()), typed.strip()))
        return names

    def clean(self):
        data = super().clean()
        variant, game = data.get("variant"), data.get("game")
        if variant is not None and game and variant.game != game:
            self.add_error("variant", _("That variant is for another game."))
        if data.get("time_control_preset") and data.get("per_move_s"):
            self.add_error(
                "time_control_preset", _("Choose a preset or seconds per decision, not both.")
            )
        _check_planned_start(self, data)
        self._check_config(data)
        self._follow_board(data)
        return data

    # Boxes whose default follows "over the board": on online, off over the board.
    FOLLOW_BOARD = ("auto_advance", "rated")

    def _follow_board(self, data: dict) -> None:
        """A box sent back as the page showed it was left alone: it takes the default of
        the event's kind (works without JS). Then, over the board, an organiser without the
        permission gets an unrated event (no refusal). Written back to the data, so a page
        shown again shows what the boxes came to."""
        board = bool(data.get("over_the_board"))
        for name in self.FOLLOW_BOARD:
            shown = self.data.get(f"{name}_shown")
            if shown in ("0", "1") and (shown == "1") == bool(data.get(name)):
                data[name] = not board
        if board and not self._may_rate(data):
            data["rated"] = False
        for name in self.FOLLOW_BOARD:
            value = bool(data.get(name))
            self.data[f"{name}_shown"] = "1" if value else "0"
            if value:
                self.data[name] = "on"
            else:
                self.data.pop(name, None)

    # The format's settings as the form names them; the others (advance, min_table_size,
    # the whole config) are said above the form.
    CONFIG_FIELDS = ("table_size", "rounds", "seeding", "double", "third_place",
                     "grand_final_reset", "points", "bye_points", "tiebreaks")  # fmt: skip

    def _check_config(self, data: dict) -> None:
        """The service's verdict on the settings (tournaments.services.check_config), each
        reason at the field it is about; skipped while a setting is itself invalid."""
        needed = ("game", "format", *self.CONFIG_FIELDS)
        if any(name in self.errors for name in needed) or not data.get("game"):
            return
        try:
            check_config(format_name=data["format"], game=data["game"], raw=self._config(data))
        except ValidationError as exc:
            for key, errors in exc.error_dict.items():
                self.add_error(key if key in self.CONFIG_FIELDS else None, errors)

    # Service errors name service arguments; these are the form fields that set them.
    SERVICE_FIELDS = {"time_control": "per_move_s", "config": None, "format": "format",
                      "guest": None}  # fmt: skip

    def add_service_error(self, exc) -> None:
        """Put a service's ValidationError on the field it is about, else above the form
        (add_error with a name that is not a field would raise)."""
        add_to_form(self, exc, field_names=self.SERVICE_FIELDS)

    @staticmethod
    def _config(d: dict) -> dict:
        config = {"table_size": d["table_size"]}
        # Whatever was sent goes to the service, which refuses an option of another format.
        for key in ("rounds", "bye_points", "tiebreaks"):
            if d.get(key) is not None:
                config[key] = d[key]
        if d.get("points") is not None:
            config["points"] = {str(d["table_size"]): d["points"]}
        if d["format"] == "swiss" and d.get("seeding"):
            config["seeding"] = d["seeding"]
        for key in ("double", "third_place"):
            if d.get(key):
                config[key] = True
        if d["format"] == "double_elimination":
            config["grand_final_reset"] = bool(d.get("grand_final_reset"))
        return config

    def service_kwargs(self) -> dict:
        d = self.cleaned_data
        return {
            "name": d["name"], "game": d["game"], "format": d["format"], "config": self._config(d),
            "time_control": {"per_move_s": d["per_move_s"]} if d.get("per_move_s") else None,
            "over_the_board": d["over_the_board"], "round_days": d.get("round_days"), "rated": d["rated"],
            "auto_advance": bool(d.get("auto_advance")),
            "variant": d.get("variant"), "time_control_preset": d.get("time_control_preset"),
            "venue": d.get("venue", ""), "description": d.get("description", ""),
            "starts_at": d.get("starts_at"), "entry_limit": d.get("entry_limit"),
            "check_in": bool(d.get("check_in")), "auto_start": bool(d.get("auto_start")),
            "time_zone": d.get("time_zone") or self.default_zone,
            **({"club": d.get("club") or None, "members_only": bool(d.get("members_only"))}
               if "club" in self.fields else {}),
        }  # fmt: skip


def zone_field(form: forms.Form, default: str) -> None:
    """The time-zone picker (every zone, by region) and, beside the planned start, the zone
    it is typed in (static/js/zone-field.js follows the picker)."""
    field = form.fields["time_zone"]
    field.choices = zone_choices()
    field.initial = default
    field.error_messages["invalid_choice"] = _(
        '"%(value)s" is not a time zone. Choose one from the list.'
    )
    field.widget.attrs["data-tournament-zone"] = ""
    shown = form_zone(form, default).key
    form.fields["starts_at"].help_text = mark_safe(
        escape(_("In the tournament's time zone: %(zone)s."))
        % {"zone": format_html('<span class="zone-name" data-zone-name>{}</span>', shown)}
    )


def form_zone(form: forms.Form, default: str) -> zoneinfo.ZoneInfo:
    """The zone a form's times are in: the one it was sent with, if it is one (a locked
    picker keeps the stored one), else ``default``."""
    sent = form.data.get("time_zone") if form.is_bound else None
    if form.fields["time_zone"].disabled:
        sent = None
    return zoneinfo.ZoneInfo(zones.chosen_zone(sent, default))


def _check_planned_start(form: forms.Form, data: dict) -> None:
    """The service's check (tournaments.services.setup.clean_planned_start), as field errors."""
    if "starts_at" not in data:
        return  # the field's own error (not a date) is said already
    try:
        clean_planned_start(data.get("starts_at"), bool(data.get("auto_start")))
    except ValidationError as exc:
        for field, errors in exc.error_dict.items():
            form.add_error(field, errors)


class PlannedStartForm(forms.Form):
    """The organiser moves, clears or automates the planned start before the start."""

    starts_at = forms.DateTimeField(
        required=False, label=_("Planned start"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )  # fmt: skip
    auto_start = forms.BooleanField(required=False, label=_("Start automatically"))
    # Checked by autostart.plan_start, which knows the stored plan (kept unchanged, a past
    # start is allowed with auto-start off).


def _variant_label(v) -> str:
    engine = ENGINES.get(v.game)
    return f"{_(engine.title) if engine else v.game}: {v.name}"


class GuestForm(forms.Form):
    guest = forms.CharField(max_length=200, label=_("Guest's name"))


class LinkGuestForm(forms.Form):
    """A guest's link to an account: a name typed (``player``) or a suggestion clicked
    (``pick``, which wins); entrants.link_target resolves it on the server."""

    player = forms.CharField(required=False, max_length=80)
    pick = forms.CharField(required=False, max_length=80)

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean(self):
        data = super().clean()
        try:
            data["account"] = link_target(self.tournament, data.get("pick") or data.get("player"))
        except ValidationError as exc:
            self.add_error("player", exc.error_dict["player"])
        return data


class EntryForm(forms.Form):
    """The organiser's pick (a button of the member search, by handle). With
    ``tournament``, only whom the picker offers (entrants.member_candidates)."""

    player = forms.ModelChoiceField(
        queryset=Player.objects.filter(is_active=True), to_field_name="name", label=_("Player")
    )

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        if tournament is not None:
            self.fields["player"].queryset = member_candidates(tournament)


class ForfeitForm(forms.Form):
    """Which seat of the table forfeits (a button per seat on the result page)."""

    PICK = "Pick one of this table's entrants to forfeit."
    forfeit = forms.TypedChoiceField(
        coerce=int, error_messages={"required": PICK, "invalid_choice": PICK}
    )

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["forfeit"].choices = [(s.entry_id, str(s.entry.player)) for s in seats]
