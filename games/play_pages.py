"""The lobby (/play/): start a match against bots or invited players; "My games"."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _

from games import selectors, services, throttling
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
    return render(request, "games/play.html", {"form": form})


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
    except ValidationError as exc:
        for field, messages in _errors(exc):
            form.add_error(field if field in form.fields else None, messages)
    return None


def _errors(exc: ValidationError) -> list[tuple[str | None, list[str]]]:
    if hasattr(exc, "error_dict"):
        return [(field, errs.messages if hasattr(errs, "messages") else
                 ValidationError(errs).messages) for field, errs in exc.error_dict.items()]  # fmt: skip
    return [(None, exc.messages)]


def _prefill(request) -> tuple[dict, list]:
    """Initial values for a rematch (?rematch=<id>) or a challenge (?opponent=<name>)."""
    me = selectors.player_for_user(request.user)
    rematch = _int(request.GET.get("rematch"))
    if rematch is not None:
        match = (
            Match.objects.filter(pk=rematch, seats__player__user=request.user).distinct().first()
        )
        if match is not None:
            seats = list(match.seats.select_related("player").order_by("index"))
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
        player = Player.objects.filter(name=opponent).first()
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


__all__ = ["MAX_SEATS", "my_games", "play"]
