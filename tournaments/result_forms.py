"""The result form of a table: whole-number scores within the game's bounds."""

from django import forms
from django.utils.translation import gettext_lazy as _

from core.errors import add_to_form
from games.engines.registry import get_engine
from tournaments.services.results import score_message

MAX_TIEBREAK = 10**6


class ResultForm(forms.Form):
    """Scores per seat (and the game's tie-break), typed in by the organiser or reported by
    a seated player; initial values: the current result."""

    ranks_error = None

    def __init__(self, *args, seats, game: str, result: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        engine = get_engine(game)
        low, high = engine.score_bounds(len(seats))
        bad = score_message(game, len(seats))
        messages = {"invalid": bad, "min_value": bad, "max_value": bad, "required": bad}
        self.tiebreak_label = engine.tiebreak_label
        result = result or {}
        for s in seats:
            self.fields[f"score_{s.index}"] = forms.IntegerField(
                label=_("%(player)s score") % {"player": s.entry.player},
                min_value=low, max_value=high, error_messages=messages,
                initial=(result.get("scores") or {}).__getitem__(s.index)
                if result.get("scores") else None,
            )  # fmt: skip
            if self.tiebreak_label:
                self.fields[f"tiebreak_{s.index}"] = forms.IntegerField(
                    label=f"{s.entry.player} {_(self.tiebreak_label)}",
                    min_value=0, max_value=MAX_TIEBREAK,
                    error_messages={"invalid": _("Tie-break values are whole numbers.")},
                    initial=result["tiebreak"][s.index] if result.get("tiebreak") else None,
                )  # fmt: skip
        self.seats = seats

    def scores(self) -> list[int]:
        return [self.cleaned_data[f"score_{s.index}"] for s in self.seats]

    def tiebreak(self) -> list[int] | None:
        if not self.tiebreak_label:
            return None
        return [self.cleaned_data[f"tiebreak_{s.index}"] for s in self.seats]

    def add_service_error(self, exc) -> None:
        """A service's ValidationError above the form (its keys are not fields)."""
        add_to_form(self, exc)
