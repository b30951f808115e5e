import json

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engines.registry import ENGINES
from games.models import Player, Variant, fold_name

# ---- the lobby -----------------------------------------------------------------------
MAX_SEATS = 5
ME = "me"
INVITE = "invite"
OPEN = "open"

# Built-in bots a player may seat from the lobby: (bot name, parameters) the bots'
# schemas accept on every engine.
# Labels stay short so that a seat's <select> shows them whole on a 390 px phone; the
# lobby's hint says what each bot does.
BOT_PRESETS: dict[str, tuple[str, dict, str]] = {
    "random": ("random", {}, _("Random bot")),
    "greedy": ("greedy", {}, _("Greedy bot")),
    "ismcts-fast": ("ismcts", {"iterations": 200}, _("Search bot, fast")),
    "ismcts-strong": ("ismcts", {"iterations": 2000}, _("Search bot, strong")),
}
SEAT_CHOICES = [
    (ME, _("Me")),
    *[(key, label) for key, (_bot, _params, label) in BOT_PRESETS.items()],
    (INVITE, _("Invite a player by name")),
    (OPEN, _("Open seat (anyone may join)")),
]


def bot_preset_for(bot_name: str, params: dict) -> str:
    """The lobby preset closest to a built-in bot (for rematches and challenges)."""
    for key, (name, preset, _label) in BOT_PRESETS.items():
        if name == bot_name and preset == (params or {}):
            return key
    if bot_name == "ismcts":
        return "ismcts-strong" if (params or {}).get("iterations", 0) >= 1000 else "ismcts-fast"
    return bot_name if bot_name in BOT_PRESETS else "random"


def time_control_key(tc: dict | None) -> str:
    """A time control as a choice value: "" none, "pm:30" per decision, "cl:600+5" a clock."""
    if not tc:
        return ""
    if tc.get("per_move_s") is not None:
        return f"pm:{tc['per_move_s']}"
    return f"cl:{tc['initial_s']}+{tc.get('increment_s') or 0}"


def parse_time_control(key: str) -> dict | None:
    if not key:
        return None
    kind, _sep, value = key.partition(":")
    try:
        if kind == "pm":
            return {"per_move_s": int(value)}
        if kind == "cl":
            initial, _plus, increment = value.partition("+")
            return {"initial_s": int(initial), "increment_s": int(increment or 0)}
    except ValueError:
        pass
    raise forms.ValidationError(_("Unknown time control."))


class VariantSelect(forms.Select):
    """Each variant option names its game (data-game), so that static/js/game-options.js
    offers only the chosen game's variants (the lobby's and the tournament form's)."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        instance = getattr(value, "instance", None)
        if instance is not None:
            option["attrs"]["data-game"] = instance.game
        return option


class PlayForm(forms.Form):
    """A new match from the lobby: the game, its variant and time control, and who sits
    where. Only shapes the request; games.services.create_match decides."""

    game = forms.ChoiceField(label=_("Game"), widget=forms.Select(attrs={"data-game-select": ""}))
    variant = forms.ModelChoiceField(
        queryset=Variant.objects.all(), required=False, empty_label=_("Standard rules"),
        label=_("Variant"), widget=VariantSelect(attrs={"data-game-options": ""}),
    )  # fmt: skip
    # Any well-formed key is accepted (a rematch keeps a time control no preset has).
    time_control = forms.CharField(label=_("Time control"), required=False, widget=forms.Select)
    seats = forms.TypedChoiceField(
        label=_("Players"), coerce=int, choices=[(n, n) for n in range(2, MAX_SEATS + 1)],
        initial=2,
    )  # fmt: skip
    rated = forms.BooleanField(
        label=_("Rated"), required=False,
        help_text=_("Counts for ratings when every human agreed to play."),
    )  # fmt: skip
    options = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, user=None, extra_time_controls=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        # The page offers only the chosen game's variants, so the game's name is not repeated.
        self.fields["variant"].label_from_instance = lambda variant: variant.name
        self.fields["game"].choices = [
            (slug, _(engine.title)) for slug, engine in sorted(ENGINES.items())
        ]
        from games.selectors import time_control_choices

        tcs = time_control_choices()
        known = {key for key, _label in tcs}
        extra = [(k, label) for k, label in extra_time_controls if k and k not in known]
        posted = self.data.get("time_control") if self.is_bound else None
        if posted and posted not in known and all(posted != k for k, _label in extra):
            extra.append((posted, _("As before")))
        # "No limit" last, as on game sites; still the one chosen when nothing is posted.
        self.fields["time_control"].widget.choices = [*tcs, *extra, ("", _("No limit"))]
        for i in range(MAX_SEATS):
            self.fields[f"seat_{i}"] = forms.ChoiceField(
                label=_("Seat %(n)s") % {"n": i + 1}, choices=SEAT_CHOICES, required=False,
                initial=ME if i == 0 else "greedy",
            )  # fmt: skip
            self.fields[f"seat_{i}_name"] = forms.CharField(
                label=_("Player name"), required=False, max_length=80
            )

    def start_players(self) -> list[tuple[str, str, str]]:
        """(slug, title, who moves first) per game: the engine's own rule (Engine.start_player)."""
        return [
            (slug, gettext(engine.title), gettext(engine.start_player))
            for slug, engine in sorted(ENGINES.items())
        ]

    def seat_rows(self) -> list[tuple]:
        return [(self[f"seat_{i}"], self[f"seat_{i}_name"], i + 1) for i in range(MAX_SEATS)]

    def clean_options(self) -> dict:
        raw = self.cleaned_data.get("options") or ""
        if not raw:
            return {}
        try:
            options = json.loads(raw)
        except ValueError:
            options = None
        if not isinstance(options, dict):
            raise forms.ValidationError(_("Options must be a JSON object."))
        return options

    def clean_time_control(self) -> dict | None:
        return parse_time_control(self.cleaned_data.get("time_control") or "")

    def clean(self) -> dict:
        data = super().clean()
        game, variant = data.get("game"), data.get("variant")
        if game and variant is not None and variant.game != game:
            self.add_error("variant", _("That variant belongs to another game."))
        count = data.get("seats")
        if not game or not count:
            return data
        engine = ENGINES[game]
        if not engine.min_players <= count <= engine.max_players:
            self.add_error(
                "seats",
                _("%(game)s is played by %(min)s to %(max)s players.")
                % {"game": _(engine.title), "min": engine.min_players, "max": engine.max_players},
            )
            return data
        players, mine = [], 0
        for i in range(count):
            choice = data.get(f"seat_{i}") or ""
            if choice == ME:
                mine += 1
                players.append(self._me())
            elif choice in BOT_PRESETS:
                players.append(choice)
            elif choice == INVITE:
                players.append(self._invitee(i, data.get(f"seat_{i}_name", "").strip()))
            elif choice == OPEN:
                players.append(None)  # taken later from the lobby's list of open games
            else:
                self.add_error(f"seat_{i}", _("Choose who sits here."))
        if mine != 1:
            self.add_error(None, _("Choose “Me” for exactly one seat."))
        data["players"] = players
        return data

    def _me(self) -> Player | None:
        return Player.objects.filter(user=self.user).first() if self.user else None

    def _invitee(self, i: int, name: str) -> Player | None:
        field = f"seat_{i}_name"
        if not name:
            self.add_error(field, _("Type the name of the player to invite."))
            return None
        player = Player.objects.filter(name_key=fold_name(name), is_active=True).first()
        if player is None:
            self.add_error(field, _("No player called “%(name)s”.") % {"name": name})
        elif self.user is not None and player.user_id == self.user.pk:
            self.add_error(field, _("That is you: choose “Me” instead."))
        return player
