"""{{ moment|when }}: a date and time in the reader's zone, naming the zone ("... (CET)")."""

from django import template

from core import timezones

register = template.Library()


@register.filter
def when(moment) -> str:
    return timezones.when(moment) if moment else ""
