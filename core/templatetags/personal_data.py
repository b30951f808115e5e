"""The settings page's calendar feed address (registration/_personal_data.html)."""

from django import template
from django.urls import reverse

register = template.Library()


@register.simple_tag(takes_context=True)
def calendar_feed_url(context) -> str:
    """Her feed's full address, or "" while she has none."""
    request = context.get("request")
    player = getattr(getattr(request, "user", None), "player", None)
    token = getattr(player, "calendar_token", "")
    if not token:
        return ""
    return request.build_absolute_uri(reverse("calendar-feed", args=[token]))
