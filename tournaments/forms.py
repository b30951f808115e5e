from django import forms
from django.utils.translation import gettext_lazy as _

from games.engines.registry import ENGINES
from games.models import Player
from games.services.matches import MAX_DECISION_S
from tournaments.models import FORMAT_CHOICES
from tournaments.services import MAX_ROUND_DAYS, MAX_ROUNDS

MAX_SCORE = 1e9  # any finite score within reason; the game's own rules are checked later


class TournamentForm(forms.Form):
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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(slug, _(e.title)) for slug, e in sorted(ENGINES.items())]

    # Service errors name service arguments; these are the form fields that set them.
    SERVICE_FIELDS = {"time_control": "per_move_s", "config": None, "format": "format"}

    def add_service_error(self, exc) -> None:
        """Put a service's ValidationError on the field it is about, else above the form
        (add_error with a name that is not a field would raise)."""
        if not hasattr(exc, "error_dict"):
            self.add_error(None, exc)
            return
        for key, errors in exc.error_dict.items():
            field = self.SERVICE_FIELDS.get(key, key)
            self.add_error(field if field in self.fields else None, errors)

    def service_kwargs(self) -> dict:
        d = self.cleaned_data
        config = {"table_size": d["table_size"]}
        if d.get("rounds"):
            config["rounds"] = d["rounds"]
        return {
            "name": d["name"], "game": d["game"], "format": d["format"], "config": config,
            "time_control": {"per_move_s": d["per_move_s"]} if d.get("per_move_s") else None,
            "over_the_board": d["over_the_board"], "round_days": d.get("round_days"), "rated": d["rated"],
        }  # fmt: skip


class EntryForm(forms.Form):
    player = forms.ModelChoiceField(
        queryset=Player.objects.filter(is_active=True), to_field_name="name", label=_("Player")
    )


class ResultForm(forms.Form):
    """Scores per seat and the game's tie-break, typed in by the organiser."""

    def __init__(self, *args, seats, tiebreak_label=None, **kwargs):
        super().__init__(*args, **kwargs)
        for s in seats:
            self.fields[f"score_{s.index}"] = forms.FloatField(
                label=_("%(player)s score") % {"player": s.entry.player},
                min_value=-MAX_SCORE,
                max_value=MAX_SCORE,
            )
            if tiebreak_label:
                self.fields[f"tiebreak_{s.index}"] = forms.FloatField(
                    label=f"{s.entry.player} {tiebreak_label}",
                    min_value=-MAX_SCORE, max_value=MAX_SCORE,
                )  # fmt: skip
        self.seats, self.tiebreak_label = seats, tiebreak_label

    def scores(self) -> list[float]:
        return [self.cleaned_data[f"score_{s.index}"] for s in self.seats]

    def tiebreak(self) -> list[float] | None:
        if not self.tiebreak_label:
            return None
        return [self.cleaned_data[f"tiebreak_{s.index}"] for s in self.seats]


class ForfeitForm(forms.Form):
    """Which seat of the table forfeits (a button per seat on the result page)."""

    PICK = "Pick one of this table's entrants to forfeit."
    forfeit = forms.TypedChoiceField(
        coerce=int, error_messages={"required": PICK, "invalid_choice": PICK}
    )

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["forfeit"].choices = [(s.entry_id, str(s.entry.player)) for s in seats]
