"""The header's counts, for `/header/counts/` (core/views.py, the polling fallback) and
for the live feed "user" (core/live/feeds.py) that every page of a signed-in person names
on <body>: her matches waiting for her move, her open invitations, her unread notices.

The feed changes on her own channel ("user:<id>"), announced with every decision of a
match she is seated in (games/services/dispatch.py), when a match of hers starts or is
aborted, when an invitation to her is made, answered or withdrawn, and when a notice is
made or read. Its message is {"counts": {...}} for static/js/live-header.js.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.live.feeds import Feed, FeedError, Opened, Rendered, register
from core.live.publish import user_channel


def counts(user) -> dict[str, int]:
    """{"turns", "invitations", "notifications"}: one COUNT each."""
    from core.context_processors import invitation_count
    from games.selectors import turn_count
    from notifications.selectors import unread_count  # the app above games: looked up late

    return {"turns": turn_count(user), "invitations": invitation_count(user),
            "notifications": unread_count(user)}  # fmt: skip


def version(numbers: dict[str, int]) -> str:
    """ "<turns>-<invitations>-<notifications>", as the page's <body> names it."""
    return f"{numbers['turns']}-{numbers['invitations']}-{numbers['notifications']}"


class UserFeed(Feed):
    name = "user"

    def open(self, viewer, args):
        if args:
            raise FeedError(_("The header's feed is just user."))
        if not viewer.user_id:
            raise FeedError(_("Sign in to follow your counts."), status=403)
        # Numbers only, nothing in her language: one render for all her open pages.
        return Opened(channels=(user_channel(viewer.user_id),), key=(viewer.user_id,))

    def render(self, viewer, state, since):
        numbers = counts(viewer.user)
        now = version(numbers)
        if since == now:
            return Rendered(now)
        return Rendered(now, {"counts": numbers})


register(UserFeed())
