"""Match pages: list, live match page (htmx partials), playing a move, replay."""

import json
from itertools import groupby

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from games import selectors, services
from games.api.parsers import MAX_DEPTH, depth_of
from games.engines.registry import get_engine
from games.models import Match, MatchAction, MatchStatus

MAX_ACTION_CHARS = 16 * 1024


def match_list(request):
    matches = selectors.match_list(status=request.GET.get("status"), game=request.GET.get("game"))
    page = Paginator(matches, 25).get_page(request.GET.get("page"))
    template = "games/match_list.html#rows" if request.htmx else "games/match_list.html"
    return render(request, template, {"page": page, "statuses": MatchStatus.choices})


def _live_context(request, match: Match) -> dict:
    seat = selectors.viewer_seat(match, request.user, _int(request.GET.get("seat")))
    view = selectors.match_view(match, seat)
    engine = get_engine(match.game)
    board = engine.render_svg(view["observation"]) if view["observation"] is not None else ""
    groups = [
        (kind, list(items))
        for kind, items in groupby(view["legal_actions"], key=lambda a: a["action"].get("type", ""))
    ]
    for _, items in groups:
        for item in items:
            item["json"] = json.dumps(item["action"], sort_keys=True)
    return {
        "match": match,
        "seats": list(match.seats.select_related("player")),
        "view": view,
        "board": mark_safe(board),  # produced by our own engine from an observation
        "action_groups": groups,
        "log": selectors.match_log(match, seat)[-30:][::-1],
    }


def match_detail(request, pk: int):
    match = get_object_or_404(Match, pk=pk)
    context = _live_context(request, match)
    context["predictions"] = selectors.match_predictions(match)
    return render(request, "games/match_detail.html", context)


def match_live(request, pk: int):
    """The live part of the match page; 204 (htmx keeps what it shows) when nothing changed."""
    match = get_object_or_404(Match, pk=pk)
    if _int(request.GET.get("ply")) == match.ply and match.status == MatchStatus.RUNNING:
        return HttpResponse(status=204)
    return render(request, "games/match_detail.html#live", _live_context(request, match))


@require_POST
def match_act(request, pk: int):
    match = get_object_or_404(Match, pk=pk)
    raw_action, raw_ply = request.POST.get("action", ""), request.POST.get("ply", "")
    try:
        if len(raw_action) > MAX_ACTION_CHARS or not (raw_ply.isascii() and raw_ply.isdigit()):
            raise ValueError
        action = json.loads(raw_action)
        ply = int(raw_ply)
    except (ValueError, RecursionError):
        return HttpResponseBadRequest("malformed action")
    if not isinstance(action, dict) or ply >= 2**31 or depth_of(action) > MAX_DEPTH:
        return HttpResponseBadRequest("malformed action")
    try:
        services.submit_action(match_id=match.pk, user=request.user, ply=ply, action=action)
    except services.MatchError as exc:
        messages.error(request, str(exc))
    match.refresh_from_db()
    if request.htmx:
        return render(request, "games/match_detail.html#live", _live_context(request, match))
    return redirect("match-detail", pk=match.pk)


def match_replay(request, pk: int):
    """Step through a finished match from the spectator's seat."""
    match = get_object_or_404(Match, pk=pk)
    if match.status == MatchStatus.RUNNING:
        return redirect("match-detail", pk=match.pk)
    engine = get_engine(match.game)
    actions = list(MatchAction.objects.filter(match=match).order_by("ply"))
    ply = max(0, min(_int(request.GET.get("ply")) or 0, len(actions)))
    state = engine.new_game(players=match.seats.count(), seed=match.seed, options=match.options)
    for a in actions[:ply]:
        state = engine.apply(state, a.action)
    context = {
        "match": match,
        "ply": ply,
        "last": len(actions),
        "board": mark_safe(engine.render_svg(engine.observation(state, None))),
        "current": actions[ply - 1] if ply else None,
    }
    template = "games/match_replay.html#step" if request.htmx else "games/match_replay.html"
    return render(request, template, context)


def _int(raw) -> int | None:
    """A small whole number from a query parameter; None for anything else."""
    if not isinstance(raw, str) or len(raw) > 9 or not raw.lstrip("-").isdigit():
        return None
    return int(raw) if raw.isascii() else None
