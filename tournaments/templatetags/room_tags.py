"""The room on the tournament's page: the organiser's round timer and table names
(outside the shared, cached live fragment: only the organiser sees them), and a table's
name where only the table is at hand (its own page)."""

from django import template

from tournaments import selectors
from tournaments.services import table_names, timer

register = template.Library()


@register.inclusion_tag("tournaments/_round_timer.html", takes_context=True)
def round_timer(context, tournament):
    rnd = selectors.current_round(tournament)
    shown = rnd is not None and rnd.status != "finished"
    return {
        "t": tournament, "round": rnd if shown else None,
        "timer": timer.state(rnd) if shown else None,
        "default_minutes": (rnd.timer_minutes if rnd else None) or timer.DEFAULT_MINUTES,
        "max_minutes": timer.MAX_MINUTES, "csrf_token": context.get("csrf_token"),
    }  # fmt: skip


@register.inclusion_tag("tournaments/_table_names.html", takes_context=True)
def table_names_form(context, tournament):
    names = table_names.names_of(tournament)
    return {
        "t": tournament, "names": names, "lines": table_names.as_lines(names),
        "max_tables": table_names.MAX_TABLES, "max_name": table_names.MAX_NAME,
        "csrf_token": context.get("csrf_token"),
    }  # fmt: skip


@register.filter
def table_name(table) -> str:
    """The organiser's name for the table's number ("" if none)."""
    name = getattr(table, "name", None)
    if isinstance(name, str):
        return name
    return table_names.name_of(table.round.tournament, table.number)
