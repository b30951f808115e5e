"""Match pages: list, live match page (htmx partials), playing a move, replay."""

import importlib
import json
from itertools import groupby

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST
from django_htmx.http import reswap

from core import throttling
from games import board_patch, live_boards, selectors, services, visits
from games.api.parsers import MAX_DEPTH, depth_of
from games.engines.registry import get_engine
from games.hands import hand_parts
from games.models import Match, MatchStatus

MAX_ACTION_CHARS = 16 * 1024


def match_list(request):
    page, live_feed = match_rows(request.GET)
    template = "games/match_list.html#rows" if request.htmx else "games/match_list.html"
    return render(request, template, {"page": page, "statuses": MatchStatus.choices,
                                      "live_feed": live_feed})  # fmt: skip


def match_rows(params) -> tuple:
    """The list's page for these GET parameters, and its push feed's spec and version
    (the rows' feed, games/live_lists.py, renders the same page through this)."""
    from games import live_lists  # it renders through this module's helper: imported late

    matches = selectors.match_list(status=params.get("status"), game=params.get("game"))
    page = Paginator(matches, 25).get_page(params.get("page"))
    return page, live_lists.feed_of(params, page)


# Human names for the kinds of decision (the action dict's "type") across the engines.
KIND_LABELS = {
    "setup": _("Starting chips"), "scout": _("Scout"), "draw": _("Draw"), "use": _("Use a card"),
    "move": _("Move"), "lay": _("Lay a chip"), "wall": _("Wall"), "play": _("Play cards"),
    "discard": _("Discard"), "rob": _("Rob"), "sell": _("Sell"), "decline": _("Decline"),
    "route": _("Choose a route"), "bazaar": _("Bazaar"), "pass": _("Pass"), "gem": _("Gem"),
    "baksheesh": _("Baksheesh"), "layout": _("Layout"), "yellow": _("Yellow dice"),
    "row": _("Choose a dice row"), "action": _("Action"), "place": _("Place"),
    "build": _("Build"), "end": _("End"), "boost": _("Boost"), "go": _("Go"),
    "score": _("Score"), "swap": _("Swap"), "send": _("Send"), "pay": _("Pay"),
    "take": _("Take"), "bank": _("Bank"), "block": _("Block"),
}  # fmt: skip


def kind_label(kind: str) -> str:
    return KIND_LABELS.get(kind) or (kind.replace("_", " ").capitalize() if kind else _("Choose"))


def _live_context(request, match: Match) -> dict:
    seat = selectors.viewer_seat(match, request.user, _int(request.GET.get("seat")))
    view = selectors.match_view(match, seat)
    engine = get_engine(match.game)
    board = engine.render_svg(view["observation"]) if view["observation"] is not None else ""
    if board and match.status == MatchStatus.RUNNING:
        live_boards.keep(match, seat, board)
    for item in view["legal_actions"]:
        item["json"] = json.dumps(item["action"], sort_keys=True)
    groups = [
        (kind_label(kind), list(items))
        for kind, items in groupby(view["legal_actions"], key=lambda a: a["action"].get("type", ""))
    ]
    return {
        "match": match,
        **selectors.match_page_state(match, request.user),
        "view": view,
        "board": mark_safe(board),  # produced by our own engine from an observation
        "action_groups": groups,
        # For static/js/board.js: what may be clicked, and what moved last.
        "board_actions": [
            {
                "action": i["json"],
                "label": i["label"],
                "targets": i["targets"],
                "choice": i["choice"],
            }
            for i in view["legal_actions"]
        ],  # fmt: skip
        **_story(match, seat),
        # Engines without board ids are answered from the list (shown open).
        "board_clickable": hasattr(engine, "action_targets"),
        # The pending decision in a sentence, for the seat that makes it.
        "prompt": decision_prompt(match, engine, view),
        # What the page's push stream starts from (static/js/live-stream.js).
        "live_feed": f"match:{match.pk}{'' if seat is None else f':{seat}'}@{match_version(match)}",
    }


def match_version(match: Match) -> str:
    """Where the page's push stream starts (games/live_feeds.py): the ply and the status.
    (A panel that changes without either, a waiting match's seats or a rating arriving,
    is versioned by a checksum of its render there.)"""
    return f"{match.ply}-{match.status}"


def decision_prompt(match: Match, engine, view: dict) -> str:
    """What the viewer is asked now, from the game's `prompts` module ("" when the viewer
    has no decision, or the game has no prompts)."""
    if not view["legal_actions"] or match.state is None:
        return ""
    try:
        module = importlib.import_module(f"games.engines.{match.game}.prompts")
    except ImportError:  # a game (or test engine) without sentences: the generic hint
        return ""
    return module.prompt(engine.from_json(match.state), view["seat"])


# A spectator's strip: the newest decisions of the last round, at most this many.
SPECTATOR_STRIP = 10


def _story(match: Match, seat: int | None) -> dict:
    """The log (whole, newest first), the "since your move" strip and what the board
    highlights: every decision in the strip, else the last one."""
    seats = selectors.label_seats(match, list(match.seats.select_related("player")))
    rows = selectors.page_log(match, seat, seats)
    since = rows[selectors.since_start(rows, seat) :]
    if seat is None:
        since = since[-SPECTATOR_STRIP:]  # a round of a long game is a screenful
    targets = selectors.story_targets(match, seat, since)
    return {
        "log": rows[::-1],
        "since": since,
        "since_mine": seat is not None,
        # For static/js/live-match.js, which marks the log's lines with their seat's colour.
        "seat_fills": {s.index: s.colour["fill"] for s in seats if s.colour},
        # For static/js/board.js: the parts the decisions since the viewer's moved.
        "last_move": targets if since else selectors.last_move_targets(match, seat),
    }


def match_detail(request, pk: int):
    match = get_object_or_404(Match, pk=pk)
    visits.note_visit(match.pk, request.user)  # "your move" reminders skip a watcher
    context = _live_context(request, match)
    predictions = selectors.match_predictions(match)
    if predictions:
        names = {
            s.index: s.label
            for s in selectors.label_seats(match, list(match.seats.select_related("player")))
        }
        predictions["seats"] = [
            {**p, "name": names.get(p["seat"], "")} for p in predictions["seats"]
        ]
    context["predictions"] = predictions
    context["played_for"] = selectors.match_context(match)  # its tournament, round and table
    return render(request, "games/match_detail.html", context)


def match_live(request, pk: int):
    """The live part of the match page; 204 (htmx keeps what it shows) when nothing changed,
    only what changed when the page shows an earlier ply of the same running match. (The
    page's fallback without push: the stream sends the same, see games/live_feeds.py.)"""
    match = get_object_or_404(Match, pk=pk)
    # Any signed-in viewer: asking whether she holds a seat would cost a query a poll,
    # and only seated people's visits are ever read.
    visits.note_visit(match.pk, request.user)
    update = live_update(request, match, _int(request.GET.get("ply")))
    if update is None:
        return HttpResponse(status=204)
    swap, html = update
    response = HttpResponse(html)
    return reswap(response, "none") if swap == "none" else response


def live_update(request, match: Match, ply: int | None) -> tuple[str, str] | None:
    """What brings a page showing `ply` (None: nothing yet) to the match now: None when it
    is current, else the htmx swap style and the HTML ("none": out-of-band swaps only)."""
    if ply == match.ply and match.status == MatchStatus.RUNNING:
        return None
    context = _live_context(request, match)
    if ply is not None and 0 < ply < match.ply and match.status == MatchStatus.RUNNING:
        patch = _live_patch(request, match, ply, context)
        if patch is not None:
            return "none", patch
    return "outerHTML", render_to_string("games/match_detail.html#live", context, request)


def _live_patch(request, match: Match, ply: int, context: dict) -> str | None:
    """The changes since `ply` as htmx out-of-band swaps (the board as a patch for
    static/js/live-match.js); None when the whole panel must be sent instead: the viewer's
    choices appear or go (her turn then or now), or the old board is not known."""
    seat = context["view"]["seat"]
    decisions = selectors.match_decisions(match)
    was_mine = seat is not None and (len(decisions) <= ply or decisions[ply].seat == seat)
    if context["action_groups"] or was_mine:
        return None
    old = live_boards.kept(match, seat, ply)
    patch = board_patch.svg_patch(old, str(context["board"])) if old else None
    # A time banner (a seat timed out) is part of the whole panel only.
    if patch is None or render_to_string("games/_time_banner.html", context, request).strip():
        return None
    context["board_patch"] = patch
    # Numbers only (the markup travels in <template>s): nothing in it needs escaping.
    context["board_patch_json"] = json.dumps(patch["patches"], separators=(",", ":"))
    context["new_log"] = [r for r in context["log"] if r["ply"] >= ply]
    return render_to_string("games/match_detail.html#live-patch", context, request)


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
    limited = throttling.page_limit(request, "match_actions")
    try:
        if limited:
            messages.error(request, limited)
        else:
            services.submit_action(match_id=match.pk, user=request.user, ply=ply, action=action)
    except services.MatchError as exc:
        messages.error(request, str(exc))
    match.refresh_from_db()
    if request.htmx:
        return render(request, "games/match_detail.html#live", _live_context(request, match))
    return redirect("match-detail", pk=match.pk)


@login_required
def match_resign(request, pk: int):
    """GET asks to confirm; POST resigns the caller's seat (ranked last, as a forfeit)."""
    match = get_object_or_404(Match, pk=pk)
    if request.method == "POST":
        limited = throttling.page_limit(request, "match_create")
        if limited:
            messages.error(request, limited)
            return redirect("match-detail", pk=match.pk)
        try:
            services.resign(match_id=match.pk, user=request.user)
        except services.MatchError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, gettext("You resigned: your seat ranks last."))
        return redirect("match-detail", pk=match.pk)
    return render(request, "games/match_resign.html", {"match": match})


def match_replay(request, pk: int):
    """Step through a finished match: the board and every seat's hand."""
    match = get_object_or_404(Match, pk=pk)
    if (
        not selectors.record_is_public(match)
        or match.outcome
        and match.outcome.get("over_the_board")
    ):
        return redirect("match-detail", pk=match.pk)
    step = selectors.replay_step(match, _int(request.GET.get("ply")) or 0)
    for hand in step["hands"]:
        hand["parts"] = hand_parts(match.game, hand["private"])
    # The log's lines are in the reader's language (cached per match, ply and language).
    moves = selectors.page_log(match, None)
    names = {
        s.index: s.label
        for s in selectors.label_seats(match, list(match.seats.select_related("player")))
    }
    for hand in step["hands"]:
        hand["player"] = names.get(hand["seat"], "")
    context = {
        "match": match,
        "current_player": names.get(step["current"].seat, "") if step["current"] else "",
        **step,
        "current_label": moves[step["ply"] - 1]["label"] if step["current"] else "",
        "board": mark_safe(get_engine(match.game).render_svg(step["observation"])),
    }
    if not request.htmx:
        context["moves"] = moves
    template = "games/match_replay.html#step" if request.htmx else "games/match_replay.html"
    return render(request, template, context)


def _int(raw) -> int | None:
    """A small whole number from a query parameter; None for anything else."""
    if not isinstance(raw, str) or len(raw) > 9 or not raw.lstrip("-").isdigit():
        return None
    return int(raw) if raw.isascii() else None


@login_required
def invitation_list(request):
    """The player's invitations: open ones with Accept/Decline, then the answered ones."""
    invitations = selectors.with_targets(list(selectors.invitations_for(request.user)[:50]))
    return render(request, "games/invitations.html", {
        "open": [i for i in invitations if i.is_open],
        "answered": [i for i in invitations if not i.is_open],
    })  # fmt: skip


@login_required
@require_POST
def invitation_answer(request, pk: int, answer: str):
    answer_fn = services.accept_invitation if answer == "accept" else services.decline_invitation
    limited = throttling.page_limit(request, "invitations")
    if limited:
        messages.error(request, limited)
        return redirect("invitations")
    try:
        invitation = answer_fn(invitation_id=pk, user=request.user)
    except services.MatchError as exc:
        messages.error(request, str(exc))
        return redirect("invitations")
    if answer == "accept" and invitation.match_id:
        messages.success(
            request, gettext("Accepted: the match starts once everyone invited has accepted.")
        )
        return redirect("match-detail", pk=invitation.match_id)
    messages.success(request, gettext("Accepted.") if answer == "accept" else gettext("Declined."))
    return redirect("invitations")
