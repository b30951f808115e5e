"""The room: the projector view (current pairings by table, live standings, the round
timer, a QR code to the tournament's page) and the organiser's buttons behind it (the
round timer, named tables).

The projector view is public, like the tournament's page. Its partial is polled every
5 s; it is rendered per request (the timer moves every second; the standings under it
are cached per results version by the selectors). More tables than fit on one screen
are shown a page at a time, the next page every other poll (``tick``). One page of
tables is pushed instead while the page's stream is open (the "screen" feed,
tournaments/live_feeds.py): its poll stops then."""

from __future__ import annotations

import functools
import hashlib
import math

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core.errors import message_of
from tournaments import selectors, zones
from tournaments.models import Round, Tournament
from tournaments.services import table_names, timer
from tournaments.views import actions

# Tables a page holds by seats per table, sized for 1280x720 and 1920x1080 (screen.css
# sizes type by the screen's height: the same count fits both).
PER_PAGE = {1: 10, 2: 10, 3: 8, 4: 6, 5: 4}
TICKS_PER_PAGE = 2  # 10 s a page at one poll every 5 s
STANDINGS_ROWS = 20  # screen.css shows the rows that fit, whole


@functools.lru_cache(maxsize=256)
def _qr_svg(url: str, label: str) -> str:
    import segno

    svg = segno.make(url, error="m").svg_inline(
        scale=1, border=4, dark="#000", light="#fff", omitsize=True, svgclass="qr-code",
        title=label,
    )  # fmt: skip
    # role="img" and aria-label: the picture's accessible name (its <title> is the tooltip).
    return svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1)


def _page_of(tables: list, tick: int) -> tuple[list, int, int]:
    if not tables:
        return [], 1, 1
    seats = max((len(tb.seat_scores) for tb in tables), default=2)
    size = PER_PAGE.get(seats, 4)
    pages = math.ceil(len(tables) / size)
    page = (tick // TICKS_PER_PAGE) % pages
    return tables[page * size : (page + 1) * size], page + 1, pages


def screen_context(request, t: Tournament) -> dict:
    tick = request.GET.get("tick", "")
    tick = int(tick) if tick.isdigit() and len(tick) < 9 else 0
    rounds = selectors.rounds_overview(t)
    rnd = selectors.current_round(t, rounds)
    tables, page, pages = _page_of(list(rnd.tables.all()) if rnd else [], tick)
    problem = selectors.display_problem(t)
    rows = [] if problem else selectors.standings(t)
    url = request.build_absolute_uri(reverse("tournament-detail", args=[t.pk])) + "#my-table"
    return {
        "t": t, "round": rnd, "tables": tables, "page": page, "pages": pages,
        "byes": list(rnd.byes.all()) if rnd else [],
        "standings": rows[:STANDINGS_ROWS], "any_played": any(r["played"] for r in rows),
        "config_warning": problem, "timer": timer.state(rnd),
        "entrants": sum(1 for e in t.entries.all() if not e.withdrawn),
        "qr_svg": mark_safe(_qr_svg(url, _("QR code: the tournament's page, your table"))),
        "page_url": url, "next_tick": tick + 1, "zone": zones.tournament_zone(t),
    }  # fmt: skip


def _html(request, template: str, t: Tournament, version: str | None = None) -> str:
    context = screen_context(request, t)
    # One page of tables: versioned (the poll gets 204 while current, and the push stream
    # carries it); several pages turn over every other poll, so they carry no version.
    context["version"] = (version or screen_version(t.pk)) if context["pages"] == 1 else ""
    # The room's clock: times in the tournament's zone, wherever the laptop is set.
    with timezone.override(context["zone"]):
        return render_to_string(template, context, request)


def _render(request, template: str, t: Tournament, version: str | None = None):
    response = HttpResponse(_html(request, template, t, version))
    response["Cache-Control"] = "no-cache"
    return response


def screen(request, pk: int):
    t = get_object_or_404(Tournament, pk=pk)
    return _render(request, "tournaments/screen.html", t)


def screen_version(pk: int) -> str:
    """What the screen shows moves one of these: the tournament's live version, and its
    rounds' states and timers (a timer's start or pause touches only its round)."""
    row = selectors.live_version(pk) or {}
    rounds = (
        Round.objects.filter(tournament_id=pk)
        .order_by("number")
        .values_list("number", "status", "timer_minutes", "timer_started_at", "timer_elapsed_s")
    )
    parts = [row.get("created_at"), row.get("results_version"), row.get("status"),
             row.get("current_round"), list(rounds), get_language()]  # fmt: skip
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


def screen_live(request, pk: int):
    """204 while the one page of tables the poll shows (``v``) is still current; several
    pages turn over, so they are always drawn."""
    version = screen_version(pk)
    if request.GET.get("v") == version:
        return HttpResponse(status=204)
    t = get_object_or_404(Tournament, pk=pk)
    return _render(request, "tournaments/_screen_live.html", t, version=version)


def live_html(request, t: Tournament, version: str) -> str:
    """The partial at `version` (page one of the tables), for the push feed
    (tournaments/live_feeds.py)."""
    return _html(request, "tournaments/_screen_live.html", t, version)


# ---- the organiser's buttons ----------------------------------------------------------
def _timer_button(act, done):
    @actions.button("tournament_manage")
    def view(request, pk: int, number: int):
        t = actions.managed(request, pk)
        rnd = get_object_or_404(Round, tournament=t, number=number)
        return actions.run_then_show(
            request, pk, lambda: act(request, rnd), lambda made: done() % {"round": rnd}
        )

    return view


def _minutes(request) -> int | None:
    raw = (request.POST.get("minutes") or "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise ValidationError(
            _("A round timer runs from 1 to %(max)s minutes.") % {"max": timer.MAX_MINUTES},
            code="timer_minutes",
        )
    return int(raw[:6])


timer_start = _timer_button(
    lambda request, rnd: timer.start_timer(round_=rnd, by=request.user, minutes=_minutes(request)),
    lambda: _("Timer of %(round)s running."),
)
timer_pause = _timer_button(
    lambda request, rnd: timer.pause_timer(round_=rnd, by=request.user),
    lambda: _("Timer of %(round)s paused."),
)


def _ask_reset(request, pk: int, number: int) -> dict:
    t = actions.managed(request, pk)
    rnd = get_object_or_404(Round, tournament=t, number=number)
    state = timer.state(rnd)
    left = state["remaining"] if state else ""
    return {
        "title": _("Reset the timer of %(round)s?") % {"round": rnd},
        "consequences": [
            _("The timer stops and goes back to its full length (%(minutes)s min).")
            % {"minutes": rnd.timer_minutes or timer.DEFAULT_MINUTES},
            _("The time left now (%(left)s) is forgotten.") % {"left": left or "—"},
        ],
        "button": _("Reset timer"),
    }


@actions.final("tournament_manage", _ask_reset)
def timer_reset(request, pk: int, number: int):
    t = actions.managed(request, pk)
    rnd = get_object_or_404(Round, tournament=t, number=number)
    return actions.run_then_show(
        request, pk, lambda: timer.reset_timer(round_=rnd, by=request.user),
        _("Timer of %(round)s reset.") % {"round": rnd},
    )  # fmt: skip


@actions.button("tournament_manage")
def set_table_names(request, pk: int):
    """The organiser's form: one table a line, "3: by the window"."""
    t = actions.managed(request, pk)
    try:
        names = table_names.parse_lines(request.POST.get("table_names", ""))
    except ValidationError as exc:
        messages.error(request, message_of(exc))
        return redirect(reverse("tournament-detail", args=[pk]) + "#table-names")
    actions.run(
        request,
        lambda: table_names.set_table_names(tournament=t, names=names, by=request.user),
        lambda made: _("Table names saved.") if made else _("Table names cleared."),
    )
    return redirect(reverse("tournament-detail", args=[pk]) + "#table-names")
