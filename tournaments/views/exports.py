"""Out of the platform: CSV and TRF downloads, print views of pairings and standings.

Everything here is what the public tournament page already shows; no permission beyond
that is needed."""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments import exports, forecast, selectors, trf
from tournaments.models import Tournament
from tournaments.tiebreak_labels import labels


def _filename(t: Tournament, what: str, ext: str) -> str:
    return f"{slugify(t.name) or 'tournament'}-{t.pk}-{what}.{ext}"


def export_csv(request, pk: int, kind: str):
    if kind not in exports.KINDS:
        raise Http404
    t = get_object_or_404(Tournament, pk=pk)
    problem = None if kind == "entrants" else selectors.display_problem(t)
    if problem:
        return HttpResponse(problem, status=409, content_type="text/plain; charset=utf-8")
    response = HttpResponse(exports.BUILDERS[kind](t), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(t, kind, "csv")}"'
    return response


def export_trf(request, pk: int):
    t = get_object_or_404(Tournament, pk=pk)
    problem = selectors.display_problem(t)
    if problem:
        return HttpResponse(problem, status=409, content_type="text/plain; charset=utf-8")
    try:
        body = trf.build(t)
    except trf.NotTwoSeatSwiss as exc:
        return HttpResponse(str(exc), status=404, content_type="text/plain; charset=utf-8")
    response = HttpResponse(body, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(t, "trf16", "trf")}"'
    return response


def print_pairings(request, pk: int):
    t = get_object_or_404(Tournament, pk=pk)
    rounds = selectors.rounds_overview(t)
    number = request.GET.get("round") or ""
    chosen = None
    if number.isdigit():
        chosen = next((r for r in rounds if r.number == int(number)), None)
        if chosen is None:
            raise Http404(_("No such round."))
    elif rounds:
        chosen = rounds[-1]
    width = max((len(tb.seat_scores) for tb in chosen.tables.all()), default=2) if chosen else 2
    if chosen:
        for table in chosen.tables.all():
            table.gaps = range(width - len(table.seat_scores))
    context = {"t": t, "round": chosen, "rounds": rounds, "seat_numbers": range(1, width + 1)}
    return render(request, "tournaments/print_pairings.html", context)


def print_standings(request, pk: int):
    t = get_object_or_404(Tournament, pk=pk)
    problem = selectors.display_problem(t)
    rows = [] if problem else selectors.standings(t)
    keys = list(rows[0]["tiebreaks"]) if rows else []
    context = {
        "t": t, "standings": rows, "tiebreak_labels": labels(keys), "config_warning": problem,
        "any_played": any(r["played"] for r in rows),
        "forecast": None if problem else forecast.display_rows(forecast.for_tournament(t)),
    }  # fmt: skip
    return render(request, "tournaments/print_standings.html", context)
