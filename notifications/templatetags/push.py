"""{% push_controls %}: the "notices in this browser" buttons (static/js/push.js), only
when Web Push is configured (notifications/push.py)."""

from django import template
from django.conf import settings

from notifications.push import push_enabled

register = template.Library()


@register.inclusion_tag("notifications/_push_controls.html", takes_context=True)
def push_controls(context) -> dict:
    return {
        "public_key": settings.VAPID_PUBLIC_KEY if push_enabled() else "",
        "csrf_token": context.get("csrf_token", ""),
    }
