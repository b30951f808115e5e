"""Pages of one table: its result (entered, corrected), the change log, players' reports."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core import permissions, throttling
from core.errors import message_of
from tournaments import selectors, zones
from tournaments.forms import ForfeitForm
from tournaments.models import (
    ReportStatus,
    ResultReport,
    RoundStatus,
    Table,
    TableStatus,
    TournamentStatus,
)
from tournaments.result_forms import ResultForm
from tournaments.services import results
from tournaments.views import actions


def _table(pk: int, table_id: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament"), pk=table_id, round__tournament_id=pk
    )


def _page(request, table: Table, *, form=None, forfeit=None, report_form=None):
    t = table.round.tournament
    view = selectors.table_view(table, request.user)
    if form is None and view["manage"] and t.over_the_board:
        form = ResultForm(seats=view["seats"], game=t.game, result=table.result)
    if report_form is None and view["can_report"]:
        report_form = ResultForm(seats=view["seats"], game=t.game, prefix="report")
    context = {"t": t, "table": table, "form": form, "forfeit_form": forfeit,
               "report_form": report_form, "result_rows": _result_rows(table, view["seats"]),
               "can_delete": view["manage"] and table.status == TableStatus.FINISHED
               and results.clear_refusal(table) is None,
               **view}  # fmt: skip
    with timezone.override(zones.tournament_zone(t)):  # the event's times (tournaments.zones)
        return render(request, "tournaments/table.html", context)


def _result_rows(table: Table, seats) -> list[dict]:
    """One row per seat, best place first, for the result table (empty without a result)."""
    result = table.result or {}
    ranks = result.get("ranks") or []
    if len(ranks) != len(seats):
        return []
    scores = result.get("scores") or [None] * len(seats)
    forfeited = result.get("forfeited") or [False] * len(seats)
    rows = [
        {"player": s.entry.player, "rank": ranks[i], "score": scores[i] if i < len(scores) else None,
         "forfeited": bool(forfeited[i]) if i < len(forfeited) else False}
        for i, s in enumerate(seats)
    ]  # fmt: skip
    return sorted(rows, key=lambda r: r["rank"])


def table_detail(request, pk: int, table_id: int):
    return _page(request, _table(pk, table_id))


@login_required
def table_result(request, pk: int, table_id: int):
    """The organiser enters or corrects the result (or records a forfeit)."""
    table = _table(pk, table_id)
    t = table.round.tournament
    if not permissions.may_manage_table(request.user, table):
        raise PermissionDenied
    if request.method != "POST":
        return _page(request, table, form=_refilled(request, table))
    seats = list(table.seats.select_related("entry__player").order_by("index"))
    if "forfeit" in request.POST:
        forfeit = ForfeitForm(request.POST, seats=seats)
        if (limited := throttling.page_limit(request, "tournament_results")) is not None:
            messages.error(request, limited)
        elif forfeit.is_valid():
            entry = next(s.entry for s in seats if s.entry_id == forfeit.cleaned_data["forfeit"])
            try:
                results.record_forfeit(table=table, entry=entry, by=request.user)
            except ValidationError as exc:
                messages.error(request, message_of(exc))
            else:
                messages.success(request, _("Forfeit recorded"))
            return redirect("tournament-detail", pk=pk)
        return _page(request, table, forfeit=forfeit)
    form = ResultForm(request.POST, seats=seats, game=t.game)
    if (limited := throttling.page_limit(request, "tournament_results")) is not None:
        form.add_error(None, limited)
    elif form.is_valid():
        first = table.status != TableStatus.FINISHED
        if not first and not actions.confirmed(request):
            return _ask_correction(request, table, form)  # a correction asks first
        try:
            table, changed = results.set_result(
                table=table, scores=form.scores(), tiebreak=form.tiebreak(), by=request.user
            )
        except ValidationError as exc:
            form.add_service_error(exc)
        else:
            if first:
                messages.success(request, _("%(table)s recorded") % {"table": table})
                return redirect("tournament-detail", pk=pk)
            if changed:
                messages.success(request, _("%(table)s corrected") % {"table": table})
            else:
                messages.info(request, _("Same result as before: nothing changed."))
            return redirect("table-detail", pk=pk, table_id=table.pk)
    return _page(request, table, form=form)


def _refilled(request, table: Table) -> ResultForm | None:
    """The form as the confirmation page's "Go back" left it (its values in the query)."""
    t = table.round.tournament
    if not t.over_the_board or not any(k.startswith("score_") for k in request.GET):
        return None
    seats = list(table.seats.select_related("entry__player").order_by("index"))
    form = ResultForm(seats=seats, game=t.game)
    form.initial = {name: request.GET[name] for name in form.fields if name in request.GET}
    return form


def _ask_correction(request, table: Table, form: ResultForm):
    """A finished table's new result, before it counts: the page says what will happen and
    its button posts the same values again, confirmed. A correction the service would
    refuse is the form's error; the same result again changes nothing."""
    pk = table.round.tournament_id
    try:
        preview = results.correction_preview(
            table=table, scores=form.scores(), tiebreak=form.tiebreak()
        )
    except ValidationError as exc:
        form.add_service_error(exc)
        return _page(request, table, form=form)
    if preview is None:
        messages.info(request, _("Same result as before: nothing changed."))
        return redirect("table-detail", pk=pk, table_id=table.pk)
    names = [str(s.entry.player) for s in form.seats]
    lines = [
        _("Before: %(result)s") % {"result": selectors.describe(preview["before"], names)},
        _("After: %(result)s") % {"result": selectors.describe(preview["after"], names)},
        _("The standings follow; later rounds stay as they were paired."),
    ]
    if preview["rerated"]:
        lines.append(_("Ratings are recomputed."))
    values = {name: form.cleaned_data[name] for name in form.fields}
    back = reverse("table-result", args=[pk, table.pk]) + "?" + urlencode(values)
    words = {"title": _("Correct the result of Table %(n)s?") % {"n": table.number},
             "consequences": lines, "button": _("Save the correction"), "back": back,
             "undo": _("You can correct it again on the table's page; every change is logged.")}  # fmt: skip
    return actions.confirm_page(request, table.round.tournament, words, repost=values)


def _ask_delete(request, pk: int, table_id: int) -> dict:
    table = _table(pk, table_id)
    if not permissions.may_manage_table(request.user, table):
        raise PermissionDenied
    t, rnd = table.round.tournament, table.round
    words = {"title": _("Delete the result of Table %(n)s?") % {"n": table.number},
             "button": _("Delete the result"),
             "back": reverse("table-detail", args=[pk, table.pk]),
             "undo": _("Enter the right result on the table's page again; the deletion stays "
                       "logged.")}  # fmt: skip
    if (refusal := results.clear_refusal(table)) is not None:
        return {**words, "consequences": [refusal]}  # the button's POST is refused too
    names = [str(s.entry.player) for s in table.seats.select_related("entry__player")
             .order_by("index")]  # fmt: skip
    lines = [
        _("The result of Table %(n)s is deleted: %(result)s.")
        % {"n": table.number, "result": selectors.describe(table.result, names)},
        _("The table waits for its result again; the standings follow."),
    ]
    if rnd.status == RoundStatus.FINISHED:
        lines.append(_("%(round)s is running again until then.") % {"round": rnd})
    if t.status == TournamentStatus.FINISHED:
        lines.append(_("The tournament is no longer finished: it runs again until then."))
    if table.match_id is not None:
        if table.match.rated:
            lines.append(_("Its match leaves the players' histories; ratings are recomputed."))
        else:
            lines.append(_("Its match leaves the players' histories."))
    return {**words, "consequences": lines}


@actions.final("tournament_results", _ask_delete)
def table_result_delete(request, pk: int, table_id: int):
    """The organiser deletes a result typed on the wrong table (asked first)."""
    table = _table(pk, table_id)
    if not permissions.may_manage_table(request.user, table):
        raise PermissionDenied
    actions.run(request, lambda: results.clear_result(table=table, by=request.user),
                _("Result of Table %(n)s deleted.") % {"n": table.number})  # fmt: skip
    return redirect("table-detail", pk=pk, table_id=table.pk)


@require_POST
@login_required
def table_report(request, pk: int, table_id: int):
    """A seated player reports the table's result."""
    table = _table(pk, table_id)
    t = table.round.tournament
    seats = list(table.seats.select_related("entry__player").order_by("index"))
    form = ResultForm(request.POST, seats=seats, game=t.game, prefix="report")
    if (limited := throttling.page_limit(request, "tournament_results")) is not None:
        form.add_error(None, limited)
    elif form.is_valid():
        try:
            report = results.report_result(
                table=table, by=request.user, scores=form.scores(), tiebreak=form.tiebreak()
            )
        except ValidationError as exc:
            form.add_service_error(exc)
        else:
            report.refresh_from_db()
            if report.status == ReportStatus.CONFIRMED:
                messages.success(request, _("Result recorded"))
            else:
                messages.success(request, _("Result reported: it counts once confirmed."))
            return redirect("table-detail", pk=pk, table_id=table.pk)
    return _page(request, table, report_form=form)


def _decide(request, pk: int, table_id: int, report_id: int, act, done: str):
    table = _table(pk, table_id)
    report = get_object_or_404(ResultReport, pk=report_id, table=table)
    if (limited := throttling.page_limit(request, "tournament_results")) is not None:
        messages.error(request, limited)
    else:
        actions.run(request, lambda: act(report=report, by=request.user), done)
    target = request.POST.get("next")
    if target == "tournament":
        return redirect("tournament-detail", pk=pk)
    return redirect("table-detail", pk=pk, table_id=table.pk)


@require_POST
@login_required
def report_confirm(request, pk: int, table_id: int, report_id: int):
    return _decide(request, pk, table_id, report_id, results.confirm_report, _("Confirmed"))


@require_POST
@login_required
def report_reject(request, pk: int, table_id: int, report_id: int):
    return _decide(request, pk, table_id, report_id, results.reject_report, _("Rejected"))
