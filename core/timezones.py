"""Times in the reader's time zone.

Storage is UTC (USE_TZ). Per request, TimeZoneMiddleware activates the zone pages show
times in and read typed-in times in (a planned start typed as 18:00 is 18:00 there):

1. a signed-in user's saved preference (Player.time_zone), else
2. the browser's zone, which static/js/timezone.js keeps in the TZ_COOKIE cookie, else
3. the site's default, settings.TIME_ZONE (Europe/Prague unless the environment says).

A tournament's pages and its admin use the tournament's own zone instead, whoever reads
them (tournaments.zones): a club's evening starts at the same 19:00 for everyone.

Only names from zoneinfo.available_timezones() count; anything else (an old cookie, a
hand-made one) is ignored, never an error. The API stays in UTC whoever calls it: its
ISO 8601 times carry their offset, and bot programs must not see them move with a
cookie (and naive times sent to it keep meaning UTC, as before).
"""

from __future__ import annotations

import functools
import zoneinfo

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext

TZ_COOKIE = "tz"
API_PREFIX = "/api/"
# A user's saved zone is read on every page and htmx poll: kept in the cache, dropped
# when changed (games.services.set_time_zone); the TTL bounds a stale entry left by a
# change made while the cache was down.
PREFERENCE_TTL_S = 600
# In the system's list but not places: the host's own link and a placeholder zone.
_NOT_PLACES = {"localtime", "Factory"}
MAX_NAME = 64


@functools.cache
def zone_names() -> frozenset[str]:
    """Every zone a user may choose (read once: listing them scans the tz database)."""
    return frozenset(zoneinfo.available_timezones() - _NOT_PLACES)


def is_zone(name) -> bool:
    return isinstance(name, str) and name in zone_names()


def check_zone(name: str) -> str:
    """The zone name, or a ValidationError saying it is unknown ("" means automatic)."""
    if name == "" or is_zone(name):
        return name
    shown = str(name)[:MAX_NAME]
    raise ValidationError(
        gettext('"%(zone)s" is not a time zone. Choose one from the list, e.g. %(example)s.')
        % {"zone": shown, "example": settings.TIME_ZONE},
        code="unknown_time_zone",
    )


def validate_zone(name: str) -> None:
    """The model field's validator (the admin's form): blank or a known zone."""
    check_zone(name)


def zone_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """The picker's options grouped by region ("Europe": "Prague", ...); names without a
    region (UTC, CET, ...) last, under "Other"."""
    groups: dict[str, list[tuple[str, str]]] = {}
    other = []
    for name in sorted(zone_names()):
        region, _, place = name.partition("/")
        if place and region != "Etc":
            groups.setdefault(region, []).append((name, place.replace("_", " ")))
        else:
            other.append((name, name))
    return [*groups.items(), (gettext("Other"), other)]


def _cache_key(user_id: int) -> str:
    return f"games:time-zone:{user_id}"


def forget_preference(user_id: int) -> None:
    cache.delete(_cache_key(user_id))


def saved_zone(user) -> str:
    """The user's saved zone ("" for none), from the cache when it holds it."""
    from games.models import Player

    key = _cache_key(user.pk)
    zone = cache.get(key)
    if zone is None:
        row = Player.objects.filter(user_id=user.pk).values_list("time_zone", flat=True)
        zone = row.first() or ""
        cache.set(key, zone, timeout=PREFERENCE_TTL_S)
    return zone


def browser_zone(request) -> str:
    """The zone the browser reported (static/js/timezone.js), "" if none or unknown."""
    name = request.COOKIES.get(TZ_COOKIE, "")
    return name if is_zone(name) else ""


def zone_for(request) -> str:
    """The zone pages are shown in for this request (see the module's docstring)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        saved = saved_zone(user)
        if is_zone(saved):
            return saved
    return browser_zone(request) or settings.TIME_ZONE


class TimeZoneMiddleware:
    """Activates the request's zone; after AuthenticationMiddleware (it reads the user).
    Deactivated afterwards, so a pooled thread never carries one reader's zone on."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        name = "UTC" if request.path_info.startswith(API_PREFIX) else zone_for(request)
        timezone.activate(zoneinfo.ZoneInfo(name))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def zone_abbreviation(moment) -> str:
    """The zone's short name at that moment in the active zone ("CET", "CEST", "EST"),
    or its offset from UTC where the zone has no letters ("UTC+03", "UTC+0545")."""
    name = timezone.localtime(moment).tzname() or ""
    if name and name[0] in "+-":
        return f"UTC{name}"
    return name


def when(moment) -> str:
    """A moment in the reader's zone, language and format, naming the zone:
    "March 14, 2027, 6:30 p.m. (CET)" / "14. března 2027 18:30 (CET)"."""
    from django.utils import formats

    local = timezone.localtime(moment)
    return f"{formats.date_format(local, 'DATETIME_FORMAT')} ({zone_abbreviation(local)})"
