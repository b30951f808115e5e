"""The lobby (/play/): start a match against bots or invited players; "My games"."""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from core import throttling
from core.errors import DomainError, add_to_form
from games import selectors, services
from games.forms import (
    BOT_PRESETS,
    INVITE,
    MAX_SEATS,
    ME,
    PlayForm,
    bot_preset_for,
    time_control_key,
)
from games.models import Match, Player, PlayerKind


@login_required
def play(request):
    initial, extra_tcs = _prefill(request)
    form = PlayForm(
        request.POST or None, user=request.user, initial=initial, extra_time_controls=extra_tcs
    )
    limited = throttling.page_limit(request, "match_create") if request.method == "POST" else None
    if limited:
        form.is_valid()  # bind the errors before adding one
        form.add_error(None, limited)
    elif request.method == "POST" and form.is_valid():
        match = _create(request, form)
        if match is not None:
            return redirect("match-detail", pk=match.pk)
    games = selectors.open_games(request.user)
    for m in games:
        m.time_control_text = time_control_text(m.time_control())
    return render(request, "games/play.html", {"form": form, "open_games": games})


def time_control_text(tc: dict | None) -> str:
    """A time control as people say it: "30 s per move", "10 min + 5 s"."""
    if not tc:
        return gettext("No limit")
    if tc.get("per_move_s") is not None:
        return gettext("%(t)s per move") % {"t": _duration(tc["per_move_s"])}
    text = _duration(tc["initial_s"])
    if tc.get("increment_s"):
        text += f" + {_duration(tc['increment_s'])}"
    return text


def _duration(seconds: int) -> str:
    if seconds % 86400 == 0:
        return gettext("%(n)s d") % {"n": seconds // 86400}
    if seconds % 3600 == 0:
        return gettext("%(n)s h") % {"n": seconds // 3600}
    if seconds % 60 == 0:
        return gettext("%(n)s min") % {"n": seconds // 60}
    return gettext("%(n)s s") % {"n": seconds}


def _lobby_button(view):
    """A lobby button: POST, signed in, within the match-creation limit (else back to the
    lobby with the limit's message)."""

    @wraps(view)
    def limited_view(request, pk: int):
        limited = throttling.page_limit(request, "match_create")
        if limited:
            messages.error(request, limited)
            return redirect("play")
        return view(request, pk)

    return login_required(require_POST(limited_view))


@_lobby_button
def play_join(request, pk: int):
    """Take an open seat; the match page shows the board once the last seat is taken."""
    try:
        services.join_match(match_id=pk, user=request.user)
    except DomainError as exc:  # a MatchError, or too many matches
        messages.error(request, str(exc))
        return redirect("play")
    return redirect("match-detail", pk=pk)


@_lobby_button
def play_cancel(request, pk: int):
    """The creator calls off a match still waiting for players."""
    if not selectors.is_waiting(pk):
        # A running match is left by resigning (or aborted from its own page).
        messages.error(
            request, gettext("Only a match still waiting for players is cancelled here.")
        )
        return redirect("play")
    try:
        services.abort_match(match_id=pk, user=request.user)
    except services.MatchError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, gettext("The match was cancelled."))
    return redirect("play")


def _create(request, form: PlayForm) -> Match | None:
    data = form.cleaned_data
    try:
        players = [
            services.builtin_bot_player(bot_name=BOT_PRESETS[p][0], params=BOT_PRESETS[p][1])
            if isinstance(p, str)
            else p
            for p in data["players"]
        ]
        return services.create_match(
            game=data["game"], players=players, options=data["options"],
            variant=data["variant"], time_control=data["time_control"], rated=data["rated"],
            created_by=request.user,
        )  # fmt: skip
    except (ValidationError, DomainError) as exc:  # a DomainError: too many matches (429)
        # The options travel in a hidden input: their messages go above the form.
        add_to_form(form, exc)
    return None


def _prefill(request) -> tuple[dict, list]:
    """Initial values for a rematch (?rematch=<id>) or a challenge (?opponent=<name>)."""
    me = selectors.player_for_user(request.user)
    rematch = selectors.rematch_of(request.user, _int(request.GET.get("rematch")))
    if rematch is not None:
        match, seats = rematch
        # Rotated: each player moves one seat on, so the first move changes hands.
        rotated = seats[1:] + seats[:1]
        initial = {
            "game": match.game, "variant": match.variant_id, "seats": len(seats),
            "time_control": time_control_key(match.time_control()),
            "options": _json(match.options), "rated": match.rated,
        }  # fmt: skip
        for i, seat in enumerate(rotated):
            initial.update(_seat_initial(i, seat.player, me))
        tc = time_control_key(match.time_control())
        return initial, [(tc, _("As in match %(pk)s") % {"pk": match.pk})]
    opponent = request.GET.get("opponent")
    if opponent:
        player = selectors.player_or_none(opponent)
        if player is not None and player != me:
            initial = {"seats": 2, "seat_0": ME, **_seat_initial(1, player, me)}
            if player.game:
                initial["game"] = player.game
            return initial, []
    return {}, []


def _seat_initial(i: int, player: Player, me: Player | None) -> dict:
    if me is not None and player.pk == me.pk:
        return {f"seat_{i}": ME}
    if player.kind == PlayerKind.ENGINE_BOT:
        preset = bot_preset_for(player.bot_name, player.bot_params)
        if BOT_PRESETS[preset][:2] == (player.bot_name, player.bot_params or {}):
            return {f"seat_{i}": preset}
    return {f"seat_{i}": INVITE, f"seat_{i}_name": player.name}


def _json(value) -> str:
    import json

    return json.dumps(value, sort_keys=True)


def _int(raw) -> int | None:
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None


@login_required
def my_games(request):
    return render(request, "games/my_games.html", {"games": selectors.my_games(request.user)})


__all__ = ["MAX_SEATS", "my_games", "play", "play_cancel", "play_join"]
