from django import forms
from django.utils.translation import gettext_lazy as _

from games.engines.registry import ENGINES
from games.models import Player
from tournaments.models import FORMAT_CHOICES


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=120, label=_("Name"))
    game = forms.ChoiceField(choices=[], label=_("Game"))
    format = forms.ChoiceField(choices=FORMAT_CHOICES, label=_("Format"))
    table_size = forms.IntegerField(min_value=2, max_value=5, initial=2, label=_("Table size"))
    rounds = forms.IntegerField(
        min_value=1, required=False, label=_("Rounds"), help_text=_("Swiss only; blank: automatic.")
    )
    per_move_s = forms.IntegerField(min_value=1, required=False, label=_("Seconds per decision"))
    over_the_board = forms.BooleanField(
        required=False,
        label=_("Over the board"),
        help_text=_("Played at the club; you enter results."),
    )
    round_days = forms.IntegerField(
        min_value=1,
        required=False,
        label=_("Days per round"),
        help_text=_("League: days per round."),
    )
    rated = forms.BooleanField(required=False, initial=True, label=_("Rated"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(slug, _(e.title)) for slug, e in sorted(ENGINES.items())]

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
                label=_("%(player)s score") % {"player": s.entry.player}
            )
            if tiebreak_label:
                self.fields[f"tiebreak_{s.index}"] = forms.FloatField(
                    label=f"{s.entry.player} {tiebreak_label}"
                )
        self.seats, self.tiebreak_label = seats, tiebreak_label

    def scores(self) -> list[float]:
        return [self.cleaned_data[f"score_{s.index}"] for s in self.seats]

    def tiebreak(self) -> list[float] | None:
        if not self.tiebreak_label:
            return None
        return [self.cleaned_data[f"tiebreak_{s.index}"] for s in self.seats]
