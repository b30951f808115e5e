"""The season form (create and edit) and the attach / detach form of a season's events.

The form only reads what was typed; clubs.services.seasons checks it (its field errors go
back on the form through core.errors.add_to_form)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Season
from clubs.services import seasons as season_services
from clubs.standings import DEFAULT_PLACE_POINTS
from games.models.matches import game_choices


def _points_text(points) -> str:
    return ", ".join(f"{p:g}" for p in points)


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    starts_on = forms.DateField(label=_("Starts"), widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=_("Ends"), widget=forms.DateInput(attrs={"type": "date"}))
    games = forms.MultipleChoiceField(
        label=_("Games"), required=False, widget=forms.CheckboxSelectMultiple,
        choices=game_choices, help_text=_("None ticked: every game."),
    )  # fmt: skip
    rule = forms.ChoiceField(label=_("Standings by"), choices=Season.Rule.choices,
                             widget=forms.RadioSelect)  # fmt: skip
    best_n = forms.IntegerField(
        label=_("Events that count"), required=False, min_value=1,
        help_text=_("For “Best N events”: how many of each player's events count."),
    )  # fmt: skip
    place_points = forms.CharField(
        label=_("Points by place"), required=False, max_length=600,
        help_text=_("For “Points by final place”: 1st, 2nd, … separated by commas. "
                    "Empty: Formula 1's 25, 18, 15, 12, 10, 8, 6, 4, 2, 1."),
    )  # fmt: skip

    def __init__(self, *args, season: Season | None = None, **kwargs):
        if season is not None and not kwargs.get("initial"):
            kwargs["initial"] = {
                "name": season.name, "starts_on": season.starts_on, "ends_on": season.ends_on,
                "games": season.games, "rule": season.rule, "best_n": season.best_n,
                "place_points": _points_text(season.place_points),
            }  # fmt: skip
        kwargs.setdefault("initial", {"rule": Season.Rule.SUM,
                                      "place_points": _points_text(DEFAULT_PLACE_POINTS)})  # fmt: skip
        super().__init__(*args, **kwargs)

    def values(self) -> dict:
        data = dict(self.cleaned_data)
        text = data.get("place_points") or ""
        data["place_points"] = season_services.parse_points(text) if text.strip() else []
        return data


class SeasonEventForm(forms.Form):
    """Attach or detach one of the club's events."""

    tournament = forms.IntegerField(min_value=1, max_value=10**15)
    action = forms.ChoiceField(choices=[("attach", "attach"), ("detach", "detach")])
