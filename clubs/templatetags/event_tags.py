"""The club page's events partial gets its data here (``{% club_events club %}``), so the
page's view need not know it; the reader comes from the request."""

from django import template

from clubs import event_selectors

register = template.Library()


@register.inclusion_tag("clubs/_events_block.html", takes_context=True)
def club_events(context, club):
    request = context.get("request")
    user = getattr(request, "user", None)
    return {"club": club, **event_selectors.club_events(club, user)}
