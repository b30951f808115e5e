"""{{ t|zone_label }}: the tournament's time zone as its pages name it, "Europe/Prague (CET)"
(tournaments.zones)."""

from django import template

from tournaments import zones

register = template.Library()


@register.filter
def zone_label(tournament) -> str:
    return zones.zone_label(tournament) if tournament else ""
