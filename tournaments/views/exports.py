"""Out of the platform: CSV, .xlsx, TRF and iCal downloads, print views of pairings and
standings.

Everything here is what the public tournament page already shows; no permission beyond
that is needed. Paper and files give times in the tournament's time zone
(``zones.tournament_zone``), not the reader's: a sheet on the club's wall says when the round
starts there."""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments import exports, forecast, selectors, trf, zones
from tournaments.models import Tournament
from tournaments.tiebreak_labels import labels

TEXT = "text/plain; charset=utf-8"


def _filename(t: Tournament, what: str, ext: str) -> str:
    return f"{slugify(t.name) or 'tournament'}-{t.pk}-{what}.{ext}"


def _download(body, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _exportable(pk: int, kind: str):
    """The tournament and None, or a 409 saying why its standings can't be given."""
    if kind not in exports.KINDS:
        raise Http404
    t = get_object_or_404(Tournament, pk=pk)
    problem = None if kind == "entrants" else selectors.display_problem(t)
    if problem:
        return t, HttpResponse(problem, status=409, content_type=TEXT)
    return t, None


def export_csv(request, pk: int, kind: str):
    t, refused = _exportable(pk, kind)
    if refused:
        return refused
    return _download(exports.csv_of(t, kind), "text/csv; charset=utf-8",
                     _filename(t, kind, "csv"))  # fmt: skip


def export_xlsx(request, pk: int, kind: str):
    t, refused = _exportable(pk, kind)
    if refused:
        return refused
    return _download(exports.xlsx_of(t, kind), exports.XLSX_TYPE, _filename(t, kind, "xlsx"))


def export_trf(request, pk: int):
    t = get_object_or_404(Tournament, pk=pk)
    problem = selectors.display_problem(t)
    if problem:
        return HttpResponse(problem, status=409, content_type=TEXT)
    try:
        body = trf.build(t)
    except trf.NotExportable as exc:
        return HttpResponse(str(exc), status=404, content_type=TEXT)
    return _download(body, TEXT, _filename(t, "trf16", "trf"))


def calendar(request, pk: int):
    t = get_object_or_404(Tournament, pk=pk)
    url = request.build_absolute_uri(reverse("tournament-detail", args=[t.pk]))
    body = exports.ical(t, url=url, host=request.get_host().split(":")[0] or "localhost")
    return _download(body, "text/calendar; charset=utf-8", _filename(t, "calendar", "ics"))


def _paper_context(t: Tournament) -> dict:
    """What heads every printed sheet: venue, the tournament's zone and the printing time."""
    zone = zones.tournament_zone(t)
    return {"t": t, "zone": zone, "printed_at": timezone.now()}


def _render_in_zone(request, template: str, context: dict):
    # Every time on the sheet in the tournament's zone (the |date filters and {% now %}).
    with timezone.override(context["zone"]):
        return render(request, template, context)


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
            # One write-in box per seat: the score when known, else blank to fill in.
            table.boxes = [
                (i, score if table.status == "finished" else None, rank)
                for i, (_player, rank, score) in enumerate(table.seat_scores, start=1)
            ]
    when = None
    if chosen:
        when = chosen.started_at or (t.starts_at if chosen.number == 1 else None)
    context = {
        **_paper_context(t), "round": chosen, "rounds": rounds,
        "seat_numbers": range(1, width + 1), "wide": width >= 4, "round_when": when,
    }  # fmt: skip
    return _render_in_zone(request, "tournaments/print_pairings.html", context)


def print_standings(request, pk: int):
    t = get_object_or_404(Tournament, pk=pk)
    problem = selectors.display_problem(t)
    rows = [] if problem else selectors.standings(t)
    keys = list(rows[0]["tiebreaks"]) if rows else []
    context = {
        **_paper_context(t), "standings": rows, "tiebreak_labels": labels(keys),
        "config_warning": problem, "any_played": any(r["played"] for r in rows),
        "forecast": None if problem else forecast.display_rows(forecast.for_tournament(t)),
        "points_scales": [] if problem else selectors.points_scales(t),
    }  # fmt: skip
    return _render_in_zone(request, "tournaments/print_standings.html", context)
