"""Tournament pages: list, live tournament page (htmx partials), organiser actions."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import condition

from core import permissions, throttling
from tournaments import bracket_svg, forecast, selectors, services, zones
from tournaments.edit_forms import TournamentEditForm
from tournaments.forms import EntryForm, TournamentForm
from tournaments.models import Entry, Table, Tournament, TournamentStatus
from tournaments.services import editing, lifecycle
from tournaments.services import results as result_services
from tournaments.tiebreak_labels import labels
from tournaments.views import actions, confirmations
from tournaments.views.entrants import detail_extras, entry_made_message, withdrawn_message
from tournaments.views.rounds import organiser_extras


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
    bracket = selectors.bracket(t, rounds, entries) if is_bracket and not problem else None
    mine = selectors.my_table(t, selectors.reader_entry(t, request.user)[1], rounds)
    return {
        "t": t,
        "my_table": mine,  # the reader's own table, first on the page (and marked in rounds)
        "my_table_ids": mine["table_ids"] if mine else set(),
        "config_warning": problem,
        "standings": rows,
        "tiebreaks": list(rows[0]["tiebreaks"]) if rows else [],
        # readable tie-break heads, no ranks before play, the forecast
        "tiebreak_labels": labels(rows[0]["tiebreaks"]) if rows else [],
        "points_scales": [] if problem else selectors.points_scales(t),
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
        "header_facts": selectors.header_facts(t),
        "undo_cancel_until": lifecycle.undo_cancel_until(t),
        "bracket_svg": bracket_svg.render(bracket),
        "bracket_list": bracket_svg.as_list(bracket),  # the phone's bracket (HTML text)
    }


def tournament_detail(request, pk: int):
    t = get_object_or_404(Tournament, pk=pk)
    with timezone.override(zones.tournament_zone(t)):  # the event's times (tournaments.zones)
        return render(request, "tournaments/detail.html",
                      {**_context(request, t), **detail_extras(request, t),
                       **organiser_extras(request, t), **live_poll(request, t)})  # fmt: skip


def _live_etag(request, pk: int) -> str | None:
    """One indexed lookup per request (kept on the request: the view needs it again)."""
    if not hasattr(request, "_live_etag"):
        reader = live_reader(pk, request.user)
        request._live_etag = reader[0] if reader else None
    return request._live_etag


def live_reader(pk: int, user) -> tuple[str, bool, int | None] | None:
    """The live fragment's version for `user` (None: no such tournament), whether she
    manages the event and her entry: one indexed lookup.

    Organisers see controls the others don't, so their fragment has an ETag of its own;
    an entrant's copy shows her own table, so hers too. The push feed
    (tournaments/live_feeds.py) groups its readers by the same two facts.
    """
    row = selectors.live_version(pk, user_id=user.pk)
    if row is None:
        return None
    # The row's organiser on an unsaved instance: the rule without another query.
    t = Tournament(pk=pk, organiser_id=row["organiser_id"])
    manage = permissions.may_manage_tournament(user, t, co_organiser=row["reader_co_organiser"])
    entry_id = row["reader_entry"]
    etag = (
        f"t{pk}.{row['created_at'].timestamp():.0f}.{row['results_version']}."
        f"{f'e{entry_id}.' if entry_id else ''}"
        # The language too: the shared copy is rendered text (English or Czech).
        f"{row['status']}.{row['current_round']}.{get_language()}."
        f"{'m' if manage else ''}"  # no reader's zone: the event's (tournaments.zones)
    )
    return etag, manage, entry_id


def live_poll(request, t: Tournament) -> dict:
    """How the live fragment asks again: every 2 s while the event can change by itself,
    every 30 s once it is over (a late correction or an undone cancel still shows up). It
    sends the version it shows (``v``) and gets 204 while that is still current; the same
    version starts its push stream (``data-live-feed``), which stops the polls while open."""
    over = t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
    return {"live_every": "30s" if over else "2s", "live_version": _live_etag(request, t.pk)}


@condition(etag_func=_live_etag)
def tournament_live(request, pk: int):
    """The htmx fragment every viewer polls: 204 while the version it shows is current (and
    304 to a plain conditional GET); otherwise the fragment (``live_fragment``)."""
    etag, html = live_fragment(request, pk, shown=request.GET.get("v"))
    if etag is None:
        raise Http404
    if html is None:
        return HttpResponse(status=204)
    response = HttpResponse(html)
    response["Cache-Control"] = "no-cache"
    return response


def live_fragment(request, pk: int, shown: str | None = None) -> tuple[str | None, str | None]:
    """The live fragment's version for this reader and its HTML (None when `shown` is that
    version, or the tournament is gone): what the poll answers and the push feed sends.

    The HTML is rendered once per version and shared by every viewer (a render of a
    64-entrant event costs ~50 ms, 20x a cache read), except organisers', which carry
    their forms."""
    etag = _live_etag(request, pk)
    if etag is None or shown == etag:
        return etag, None
    shared = not etag.endswith(".m")
    key = f"tournament-live:{etag}"
    html = cache.get(key) if shared else None
    if html is None:
        t = Tournament.objects.filter(pk=pk).first()
        if t is None:
            return None, None
        context = {**_context(request, t), **live_poll(request, t)}
        with timezone.override(zones.tournament_zone(t)):  # the event's times (zones.py)
            if shared:
                html = render_to_string(
                    "tournaments/detail.html#live", {**context, "manage": False}
                )
                cache.set(key, html, timeout=3600)
            else:
                html = render_to_string("tournaments/detail.html#live", context, request)
    return etag, html


@login_required
def tournament_create(request):
    form = TournamentForm(
        request.POST if request.method == "POST" else None,
        user=request.user,
        initial={"club": request.GET.get("club", "")[:60]},  # the club page's link
    )
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
        except PermissionDenied as exc:  # not an organiser of the club (any more)
            form.add_error("club" if "club" in form.fields else None, str(exc))
        else:
            return redirect("tournament-detail", pk=t.pk)
    with timezone.override(form.zone):  # the chosen zone, as the times were read in
        return render(request, "tournaments/create.html", {"form": form})


@actions.button("tournament_entries")
def tournament_add_entry(request, pk: int):
    t = actions.managed(request, pk)
    form = EntryForm(request.POST, tournament=t)  # only whom the member search offers
    if form.is_valid():
        player = form.cleaned_data["player"]
        return actions.run_then_show(
            request,
            pk,
            lambda: services.enter_player(tournament=t, player=player, by=request.user),
            lambda made: entry_made_message(made, player),  # entered, waitlisted or invited
        )
    else:
        messages.error(request, _("Pick a player."))
    return redirect("tournament-detail", pk=pk)


@actions.final("tournament_entries", confirmations.withdraw)
def tournament_withdraw(request, pk: int, entry_id: int):
    t = actions.managed(request, pk)
    entry = get_object_or_404(Entry, pk=entry_id, tournament=t)
    return actions.run_then_show(
        request,
        pk,
        lambda: services.withdraw_entry(entry=entry),
        lambda moved: withdrawn_message(entry.player, moved),  # and who moved up, if anyone
    )


@actions.final("tournament_manage", confirmations.start)
def tournament_start(request, pk: int):
    t = actions.managed(request, pk)
    return actions.run_then_show(
        request, pk, lambda: services.start_tournament(tournament=t), _("Started")
    )


@actions.button("tournament_manage")
def tournament_pair(request, pk: int):
    t = actions.managed(request, pk)
    return actions.run_then_show(
        request, pk, lambda: services.pair_next_round(tournament=t),
        # No round left: pairing finishes the tournament instead.
        lambda made: _("Next round paired") if made is not None else _("The tournament is over."),
    )  # fmt: skip


@login_required
def tournament_edit(request, pk: int):
    """The organiser edits the tournament (tournaments.services.editing says what, when)."""
    t = actions.managed(request, pk)
    form = TournamentEditForm(
        request.POST if request.method == "POST" else None, tournament=t, user=request.user
    )
    limited = (
        throttling.page_limit(request, "tournament_manage") if request.method == "POST" else None
    )
    if limited:
        form.add_error(None, limited)
    elif request.method == "POST" and form.is_valid():
        try:
            editing.update_tournament(tournament=t, by=request.user, **form.changes())
        except ValidationError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("Tournament saved."))
            return redirect("tournament-detail", pk=t.pk)
    with timezone.override(form.zone):  # the tournament's (or the newly chosen) zone
        return render(request, "tournaments/edit.html", {"t": t, "form": form})


@actions.final("tournament_results", confirmations.forfeit)
def table_forfeit(request, pk: int, table_id: int, entry_id: int):
    """One seat of a table forfeits (asked first: the result is recorded at once)."""
    table = get_object_or_404(Table.objects.select_related("round__tournament", "match"),
                              pk=table_id, round__tournament_id=pk)  # fmt: skip
    if not permissions.may_manage_table(request.user, table):
        raise PermissionDenied
    seat = get_object_or_404(table.seats.select_related("entry__player"), entry_id=entry_id)
    return actions.run_then_show(
        request, pk,
        lambda: result_services.record_forfeit(table=table, entry=seat.entry, by=request.user),
        lambda made: _("Forfeit recorded") if made else _("The table already has a result."),
    )  # fmt: skip
