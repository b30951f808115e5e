"""Write side of seasons: create and edit a club's season, attach and detach its events.

Only the club's owner and organisers (active members) may (PermissionDenied otherwise).
Bad input is a ValidationError keyed by field, and nothing is written.
"""

from __future__ import annotations

import datetime
import math

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext

from clubs import season_selectors
from clubs.models import Club, ClubEvent, Season
from clubs.standings import DEFAULT_PLACE_POINTS
from core import names
from games.engines.registry import ENGINES
from tournaments.models import Tournament

MAX_PLACE_POINTS = 100  # places in a points table
MAX_POINTS = 10_000  # points for one place
MAX_BEST_N = 1000
MAX_GAMES = len(ENGINES) or 10
FIELDS = ("name", "starts_on", "ends_on", "games", "rule", "best_n", "place_points")


def _require_runner(club: Club, by) -> None:
    if not season_selectors.may_run_seasons(club, by):
        raise PermissionDenied(gettext("Only the club's owner and organisers can do that."))


def _date(value, field: str, errors: dict):
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            pass
    errors[field] = [gettext("Enter a date (YYYY-MM-DD).")]
    return None


def clean_season(values: dict) -> dict:
    """The season's fields checked and normalised, or a ValidationError naming each bad
    field. Rule "places" without a table gets Formula 1's; best_n only for rule "best"."""
    errors: dict[str, list[str]] = {}
    out = dict(values)
    name = str(values.get("name") or "").strip()
    if not name:
        errors["name"] = [gettext("Give the season a name.")]
    elif len(name) > 120:
        errors["name"] = [gettext("At most 120 characters.")]
    elif names.refused_character(name) is not None:  # controls, bidi overrides (UTS #39 rules)
        errors["name"] = [gettext("The name contains control characters.")]
    out["name"] = name
    starts = _date(values.get("starts_on"), "starts_on", errors)
    ends = _date(values.get("ends_on"), "ends_on", errors)
    if starts and ends and ends < starts:
        errors["ends_on"] = [gettext("The season can't end before it starts.")]
    elif starts and ends and (ends - starts).days > 3 * 366:
        errors["ends_on"] = [gettext("A season lasts at most three years.")]
    out["starts_on"], out["ends_on"] = starts, ends
    games = values.get("games") or []
    if not isinstance(games, list | tuple) or not all(isinstance(g, str) for g in games):
        errors["games"] = [gettext("A list of games.")]
    else:
        unknown = [g for g in games if g not in ENGINES]
        if unknown:
            errors["games"] = [
                gettext("Unknown game: %(games)s.") % {"games": ", ".join(unknown[:5])}
            ]
        out["games"] = sorted(set(games))
    rule = values.get("rule") or Season.Rule.SUM
    if rule not in Season.Rule.values:
        errors["rule"] = [gettext("Choose sum, best or places.")]
    out["rule"] = rule
    best_n = values.get("best_n")
    if rule == Season.Rule.BEST:
        if isinstance(best_n, str) and best_n.strip().isdigit():
            best_n = int(best_n)
        if not isinstance(best_n, int) or isinstance(best_n, bool) or not 1 <= best_n <= MAX_BEST_N:
            errors["best_n"] = [gettext("How many events count: a whole number from 1.")]
    else:
        best_n = None
    out["best_n"] = best_n
    points = values.get("place_points")
    if rule == Season.Rule.PLACES:
        if not points:
            points = list(DEFAULT_PLACE_POINTS)
        message = _points_problem(points)
        if message:
            errors["place_points"] = [message]
        else:
            points = [int(p) if float(p).is_integer() else float(p) for p in points]
    else:
        points = (
            list(points) if isinstance(points, list | tuple) and not _points_problem(points) else []
        )
    out["place_points"] = points
    if errors:
        raise ValidationError(errors)
    return out


def _points_problem(points) -> str | None:
    if not isinstance(points, list | tuple) or not 1 <= len(points) <= MAX_PLACE_POINTS:
        return gettext("Points for each place, 1st first: 1 to %(n)s numbers.") % {
            "n": MAX_PLACE_POINTS
        }
    for p in points:
        if isinstance(p, bool) or not isinstance(p, int | float) or not math.isfinite(p):
            return gettext("Points must be numbers.")
        if not 0 <= p <= MAX_POINTS:
            return gettext("Points from 0 to %(n)s.") % {"n": MAX_POINTS}
    return None


def parse_points(text: str) -> list[float] | str:
    """ "25, 18, 15" (commas or spaces) as numbers, or the text as typed when it is not
    one (clean_season then names the problem)."""
    parts = [p for p in text.replace(";", ",").replace(",", " ").split() if p]
    try:
        return [float(p) for p in parts]
    except ValueError:
        return text


def _events_outside(season: Season, values: dict) -> list[Tournament]:
    probe = Season(club_id=season.club_id, **{k: values[k] for k in FIELDS})
    return [t for t in Tournament.objects.filter(club_event__season=season)
            if not season_selectors.fits(probe, t)]  # fmt: skip


def create_season(*, club: Club, by, **values) -> Season:
    _require_runner(club, by)
    unknown = set(values) - set(FIELDS)
    if unknown:
        raise ValidationError({k: [gettext("Unknown field.")] for k in sorted(unknown)})
    cleaned = clean_season(values)
    return Season.objects.create(club=club, **cleaned)


def update_season(*, season: Season, by, **changes) -> Season:
    """Change some of the season's fields; an event already in it must still fit its
    dates and games (else a field error naming it)."""
    _require_runner(season.club, by)
    unknown = set(changes) - set(FIELDS)
    if unknown:
        raise ValidationError({k: [gettext("Unknown field.")] for k in sorted(unknown)})
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        values = {k: getattr(season, k) for k in FIELDS}
        values.update(changes)
        cleaned = clean_season(values)
        outside = _events_outside(season, cleaned)
        if outside:
            if any(cleaned["games"] and t.game not in cleaned["games"] for t in outside):
                field = "games"
            elif any(season_selectors.event_date(t) < cleaned["starts_on"] for t in outside):
                field = "starts_on"
            else:
                field = "ends_on"
            raise ValidationError({field: [gettext(
                "These events of the season would fall outside it: %(events)s. Take them "
                "out of the season first."
            ) % {"events": ", ".join(t.name for t in outside[:5])}]})  # fmt: skip
        for k, v in cleaned.items():
            setattr(season, k, v)
        season.save()
    return season


def _club_event(season: Season, tournament: Tournament) -> ClubEvent:
    event = ClubEvent.objects.select_for_update().filter(tournament=tournament).first()
    if event is None or event.club_id != season.club_id:
        raise ValidationError({"event": [gettext("Only the club's own events go in its seasons.")]})
    return event


def attach_event(*, season: Season, tournament: Tournament, by) -> ClubEvent:
    """Put the club's event in the season: it must be on a day of the season and of one
    of its games. An event is in one season at most (moving it takes it out of the other)."""
    _require_runner(season.club, by)
    with transaction.atomic():
        event = _club_event(season, tournament)
        if tournament.status == "cancelled":
            raise ValidationError(
                {"event": [gettext("A cancelled event can't count in a season.")]}
            )
        if season.games and tournament.game not in season.games:
            raise ValidationError(
                {"event": [gettext("The event's game is not one of the season's.")]}
            )
        day = season_selectors.event_date(tournament)
        if not season.starts_on <= day <= season.ends_on:
            raise ValidationError({"event": [gettext(
                "The event is on %(day)s, outside the season (%(starts)s – %(ends)s)."
            ) % {"day": day.isoformat(), "starts": season.starts_on.isoformat(),
                 "ends": season.ends_on.isoformat()}]})  # fmt: skip
        event.season = season
        event.save(update_fields=["season"])
    return event


def detach_event(*, season: Season, tournament: Tournament, by) -> ClubEvent:
    _require_runner(season.club, by)
    with transaction.atomic():
        event = _club_event(season, tournament)
        if event.season_id != season.pk:
            raise ValidationError({"event": [gettext("The event is not in this season.")]})
        event.season = None
        event.save(update_fields=["season"])
    return event
