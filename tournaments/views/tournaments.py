"""Tournament pages: list, live tournament page (htmx partials), organiser actions."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import condition

from core import permissions, throttling
from tournaments import bracket_svg, forecast, selectors, services
from tournaments.forms import EntryForm, TournamentForm
from tournaments.models import Entry, Round, Tournament
from tournaments.tiebreak_labels import labels
from tournaments.views import actions
from tournaments.views.entrants import detail_extras


def tournament_list(request):
    tournaments = Tournament.objects.all()[:100]
    return render(request, "tournaments/list.html", {"tournaments": tournaments})


def _context(request, t: Tournament) -> dict:
    rounds = selectors.rounds_overview(t)
    entries = selectors.entries_of(t)
    is_bracket = t.format in selectors.BRACKET_FORMATS
    # Settings or rounds the format can't use (rows from before the checks, or edited by
    # hand): show the rest, and say why not this.
    problem = selectors.display_problem(t)
    rows = [] if problem else selectors.standings(t)
    return {
        "t": t,
        "config_warning": problem,
        "standings": rows,
        "tiebreaks": list(rows[0]["tiebreaks"]) if rows else [],
        # readable tie-break heads, no ranks before play, the forecast
        "tiebreak_labels": labels(rows[0]["tiebreaks"]) if rows else [],
        "any_played": any(r["played"] for r in rows),
        "forecast": None if problem else forecast.display_rows(forecast.for_tournament(t)),
        "rounds": rounds,
        "progress": {"rounds_done": 0, "rounds_total": None, "percent": 0}
        if problem
        else selectors.progress(t),
        "entries": entries,
        "manage": permissions.may_manage_tournament(request.user, t),
        "entry_form": EntryForm(),
        "is_bracket": is_bracket,
        "bracket_svg": bracket_svg.render(selectors.bracket(t, rounds, entries))
        if is_bracket and not problem
        else "",
    }


def tournament_detail(request, pk: int):
    t = get_object_or_404(Tournament, pk=pk)
    return render(request, "tournaments/detail.html",
                  {**_context(request, t), **detail_extras(request, t)})  # fmt: skip


def _live_etag(request, pk: int) -> str | None:
    """One indexed lookup per request (kept on the request: the view needs it again).

    Organisers see controls the others don't, so their fragment has an ETag of its own.
    """
    if not hasattr(request, "_live_etag"):
        row = selectors.live_version(pk)
        etag = None
        if row is not None:
            # The row's organiser on an unsaved instance: the rule without another query.
            t = Tournament(pk=pk, organiser_id=row["organiser_id"])
            manage = permissions.may_manage_tournament(request.user, t)
            etag = (
                f"t{pk}.{row['created_at'].timestamp():.0f}.{row['results_version']}."
                # The language and the time zone too: the shared copy is rendered text
                # (English or Czech) with dates in the reader's zone.
                f"{row['status']}.{row['current_round']}.{get_language()}."
                f"{timezone.get_current_timezone_name()}{'.m' if manage else ''}"
            )
        request._live_etag = etag
    return request._live_etag


@condition(etag_func=_live_etag)
def tournament_live(request, pk: int):
    """The htmx fragment every viewer polls every 2 s: 304 while nothing changed; otherwise
    the HTML rendered once per version and shared by every viewer (a render of a 64-entrant
    event costs ~50 ms, 20x a cache read), except organisers', which carry their forms."""
    etag = _live_etag(request, pk)
    if etag is None:
        raise Http404
    if etag.endswith(".m"):
        t = get_object_or_404(Tournament, pk=pk)
        html = render_to_string("tournaments/detail.html#live", _context(request, t), request)
    else:
        key = f"tournament-live:{etag}"
        html = cache.get(key)
        if html is None:
            t = get_object_or_404(Tournament, pk=pk)
            context = {**_context(request, t), "manage": False}
            html = render_to_string("tournaments/detail.html#live", context)
            cache.set(key, html, timeout=3600)
    response = HttpResponse(html)
    response["Cache-Control"] = "no-cache"
    return response


@login_required
def tournament_create(request):
    form = TournamentForm(request.POST if request.method == "POST" else None, user=request.user)
    limited = (
        throttling.page_limit(request, "tournament_create") if request.method == "POST" else None
    )
    if limited:
        form.add_error(None, limited)
    elif request.method == "POST" and form.is_valid():
        try:
            t = services.create_tournament(organiser=request.user, **form.service_kwargs())
        except ValidationError as exc:
            form.add_service_error(exc)
        else:
            return redirect("tournament-detail", pk=t.pk)
    return render(request, "tournaments/create.html", {"form": form})


@actions.button("tournament_entries")
def tournament_add_entry(request, pk: int):
    t = actions.managed(request, pk)
    form = EntryForm(request.POST)
    if form.is_valid():
        player = form.cleaned_data["player"]
        return actions.run_then_show(
            request,
            pk,
            lambda: services.enter_player(tournament=t, player=player, by=request.user),
            lambda made: (
                _("%(player)s entered") % {"player": player}
                if isinstance(made, Entry)  # another person is entered only once he accepts
                else _("%(player)s invited: entered once they accept") % {"player": player}
            ),
        )
    else:
        messages.error(request, _("Pick a player."))
    return redirect("tournament-detail", pk=pk)


@actions.button("tournament_entries")
def tournament_withdraw(request, pk: int, entry_id: int):
    t = actions.managed(request, pk)
    entry = get_object_or_404(Entry, pk=entry_id, tournament=t)
    return actions.run_then_show(
        request,
        pk,
        lambda: services.withdraw_entry(entry=entry),
        _("%(player)s withdrawn") % {"player": entry.player},
    )


@actions.button("tournament_manage")
def tournament_start(request, pk: int):
    t = actions.managed(request, pk)
    return actions.run_then_show(
        request, pk, lambda: services.start_tournament(tournament=t), _("Started")
    )


@actions.button("tournament_manage")
def tournament_pair(request, pk: int):
    t = actions.managed(request, pk)
    return actions.run_then_show(
        request, pk, lambda: services.pair_next_round(tournament=t), _("Next round paired")
    )


def _round_button(act, done):
    """A round's button: the round by its number, ``act(round_=rnd)``, then ``done()``'s
    message (called per request: the reader's language)."""

    @actions.button("tournament_manage")
    def view(request, pk: int, number: int):
        t = actions.managed(request, pk)
        rnd = get_object_or_404(Round, tournament=t, number=number)
        return actions.run_then_show(request, pk, lambda: act(round_=rnd), done() % {"round": rnd})

    return view


round_start = _round_button(services.start_round, lambda: _("%(round)s started"))
round_repair = _round_button(services.repair_round, lambda: _("%(round)s paired again"))
