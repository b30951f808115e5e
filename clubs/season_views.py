"""A club's season pages: standings (the rule explained), its events, a player's history,
CSV / .xlsx files, the projector view; create and edit (owner and organisers), attach and
detach events. A members-only club's seasons are for its members only (404 otherwise).

Routed by clubs/season_urls.py under "clubs/<slug>/"."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import season_exports, season_selectors
from clubs.models import Season
from clubs.season_forms import SeasonEventForm, SeasonForm
from clubs.services import seasons as season_services
from core import throttling
from core.errors import add_to_form, message_of
from games.engines.registry import ENGINES
from tournaments.exports import XLSX_TYPE
from tournaments.models import Tournament

SCREEN_ROWS = 20  # the standings rows a projector shows (screen.css sizes by height)


def _season_context(request, season: Season) -> dict:
    table = season_selectors.standings(season)
    return {
        "club": season.club, "season": season, "table": table, "rows": table.rows,
        "events": table.events, "rule_text": season_selectors.rule_text(season),
        "tiebreak_text": season_selectors.tiebreak_text(),
        "may_run": season_selectors.may_run_seasons(season.club, request.user),
        "game_titles": [ENGINES[g].title for g in season.games if g in ENGINES],
    }  # fmt: skip


def season_detail(request, slug: str, season_id: int):
    season = season_selectors.visible_season(slug, season_id, request.user)
    context = _season_context(request, season)
    if context["may_run"]:
        context["attachable"] = season_selectors.attachable_events(season)
    return render(request, "clubs/season_detail.html", context)


def season_player(request, slug: str, season_id: int, player_id: int):
    season = season_selectors.visible_season(slug, season_id, request.user)
    player, row, table = season_selectors.player_history(season, player_id)
    return render(request, "clubs/season_player.html", {
        "club": season.club, "season": season, "player": player, "row": row,
        "table": table, "rule_text": season_selectors.rule_text(season),
    })  # fmt: skip


def season_screen(request, slug: str, season_id: int):
    season = season_selectors.visible_season(slug, season_id, request.user)
    table = season_selectors.standings(season)
    return render(request, "clubs/season_screen.html", {
        "club": season.club, "season": season, "rows": table.rows[:SCREEN_ROWS],
        "table": table, "rule_text": season_selectors.rule_text(season),
    })  # fmt: skip


def _filename(season: Season, ext: str) -> str:
    return f"{slugify(season.club.slug)}-{slugify(season.name) or 'season'}-{season.pk}-standings.{ext}"


def _download(body, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def season_csv(request, slug: str, season_id: int):
    season = season_selectors.visible_season(slug, season_id, request.user)
    body = season_exports.csv_of(season_selectors.standings(season))
    return _download(body, "text/csv; charset=utf-8", _filename(season, "csv"))


def season_xlsx(request, slug: str, season_id: int):
    season = season_selectors.visible_season(slug, season_id, request.user)
    body = season_exports.xlsx_of(season_selectors.standings(season))
    return _download(body, XLSX_TYPE, _filename(season, "xlsx"))


def _runner_club(request, slug: str):
    club = season_selectors.visible_club(slug, request.user)
    if not season_selectors.may_run_seasons(club, request.user):
        raise PermissionDenied(_("Only the club's owner and organisers can do that."))
    return club


def _save(request, form: SeasonForm, write) -> Season | None:
    """Run `write(values)` for a valid, not rate-limited POST; errors go on the form."""
    if request.method != "POST":
        return None
    limited = throttling.page_limit(request, "tournament_manage")
    if limited:
        form.add_error(None, limited)
        return None
    if not form.is_valid():
        return None
    try:
        return write(form.values())
    except (ValidationError, PermissionDenied) as exc:
        add_to_form(form, exc)
        return None


@login_required
def season_new(request, slug: str):
    club = _runner_club(request, slug)
    form = SeasonForm(request.POST if request.method == "POST" else None)
    season = _save(request, form, lambda v: season_services.create_season(
        club=club, by=request.user, **v))  # fmt: skip
    if season is not None:
        messages.success(request, _("Season created."))
        return redirect("club-season", slug=club.slug, season_id=season.pk)
    return render(request, "clubs/season_form.html", {"club": club, "form": form, "season": None})


@login_required
def season_edit(request, slug: str, season_id: int):
    club = _runner_club(request, slug)
    season = get_object_or_404(Season, pk=season_id, club=club)
    season.club = club
    form = SeasonForm(request.POST if request.method == "POST" else None, season=season)
    saved = _save(request, form, lambda v: season_services.update_season(
        season=season, by=request.user, **v))  # fmt: skip
    if saved is not None:
        messages.success(request, _("Season saved."))
        return redirect("club-season", slug=club.slug, season_id=season.pk)
    return render(request, "clubs/season_form.html", {"club": club, "form": form, "season": season})


@login_required
@require_POST
def season_events(request, slug: str, season_id: int):
    """Attach an event of the club to the season, or take one out (a message says why not)."""
    club = _runner_club(request, slug)
    season = get_object_or_404(Season, pk=season_id, club=club)
    season.club = club
    form = SeasonEventForm(request.POST)
    limited = throttling.page_limit(request, "tournament_manage")
    if limited:
        messages.error(request, limited)
    elif not form.is_valid():
        messages.error(request, _("Choose one of the club's events."))
    else:
        t = Tournament.objects.filter(pk=form.cleaned_data["tournament"]).first()
        try:
            if t is None:
                raise ValidationError({"event": [_("Choose one of the club's events.")]})
            if form.cleaned_data["action"] == "attach":
                season_services.attach_event(season=season, tournament=t, by=request.user)
                messages.success(
                    request, _("%(event)s now counts in the season.") % {"event": t.name}
                )
            else:
                season_services.detach_event(season=season, tournament=t, by=request.user)
                messages.success(
                    request, _("%(event)s no longer counts in the season.") % {"event": t.name}
                )
        except ValidationError as exc:
            messages.error(request, message_of(exc))
    return redirect("club-season", slug=club.slug, season_id=season.pk)
