"""The tournament page's list of reported results awaiting confirmation (per viewer: who
may confirm differs, so it stays out of the shared live fragment)."""

from django import template

from tournaments import selectors

register = template.Library()


@register.inclusion_tag("tournaments/_result_reports.html", takes_context=True)
def pending_result_reports(context, tournament):
    request = context["request"]
    return {
        "t": tournament,
        "reports": selectors.pending_reports(tournament, request.user),
        "next": "tournament",
        "csrf_token": context.get("csrf_token"),
    }
