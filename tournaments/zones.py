"""A tournament's own time zone: every time of the event is shown and typed in it.

A club evening starts at 19:00 in the club's town, whoever reads the page and wherever his
browser is: the tournament's pages, its live fragment, paper, projector, files and its admin
page all use ``Tournament.time_zone`` (blank or unknown: the site's, settings.TIME_ZONE),
and say which. Other pages (matches, lists, settings) stay in the reader's zone
(core.timezones). New tournaments take the organiser's saved zone, else the site's.
"""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.utils import timezone

from core import timezones
from games.models import Player
from tournaments.models import Tournament


def zone_name(t: Tournament) -> str:
    """The tournament's zone name (blank or unknown: the site's)."""
    name = getattr(t, "time_zone", "")
    return name if timezones.is_zone(name) else settings.TIME_ZONE


def tournament_zone(t: Tournament) -> zoneinfo.ZoneInfo:
    """The tournament's time zone: the one its pages, paper, files and screen give times in,
    wherever the reader is."""
    return zoneinfo.ZoneInfo(zone_name(t))


def default_zone(user) -> str:
    """A new tournament's zone: the organiser's saved one, else the site's (not the
    browser's: a guess from a laptop on holiday should not move a club's evening)."""
    if user is not None and getattr(user, "is_authenticated", False):
        # From the row, not core.timezones' cache: a creation is rare, and it must not
        # fail when the cache is down.
        saved = Player.objects.filter(user_id=user.pk).values_list("time_zone", flat=True)
        saved = saved.first() or ""
        if timezones.is_zone(saved):
            return saved
    return settings.TIME_ZONE


def chosen_zone(typed, fallback: str) -> str:
    """The zone a form was sent with, if it is one (else the fallback): the zone its
    typed-in times are read in."""
    name = typed.strip() if isinstance(typed, str) else ""
    return name if timezones.is_zone(name) else fallback


def zone_of_pk(pk: int) -> zoneinfo.ZoneInfo:
    """The zone of the tournament with this id (the site's if there is none)."""
    name = Tournament.objects.filter(pk=pk).values_list("time_zone", flat=True).first() or ""
    return zoneinfo.ZoneInfo(name if timezones.is_zone(name) else settings.TIME_ZONE)


def zone_label(t: Tournament, moment=None) -> str:
    """The zone as pages name it: "Europe/Prague (CET)" (the short name now, or at
    ``moment``); "UTC" alone where the two are the same."""
    zone = tournament_zone(t)
    with timezone.override(zone):
        short = timezones.zone_abbreviation(moment or timezone.now())
    return zone.key if short in ("", zone.key) else f"{zone.key} ({short})"
