"""The tournaments app's live feeds (core/live/feeds.py): the tournament page and the
projector view, both announced on the tournament's channel (``versions.announce``).

"tournament:<id>": the page's live fragment (#tournament-live), the same HTML and version
its poll gets (tournaments.views.tournaments.live_fragment). Readers who neither run the
event nor entered it share one render per language, whoever they are: they are rendered
as an anonymous reader, whose copy is the one the poll shares too. An entrant's copy
shows her table, an organiser's her forms (with her CSRF secret): their own audiences.
What a reader is (organiser, entrant, neither) is settled when the stream opens; a change
of it (entering from another tab, made co-organiser) shows from the next page load.

"screen:<id>": the projector's partial (#screen-live), page one of the tables; the page
names the feed only when one page holds them all (several turn over by the poll).
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext_lazy as _

from core.live.feeds import Feed, FeedError, Opened, Rendered, register
from core.live.publish import tournament_channel
from tournaments.models import Tournament
from tournaments.views import screen
from tournaments.views.tournaments import live_fragment, live_reader


def _pk(args: list[str], name: str) -> int:
    if len(args) != 1 or not (args[0].isascii() and args[0].isdigit() and len(args[0]) < 10):
        raise FeedError(_("A %(name)s feed is %(name)s:<id>.") % {"name": name})
    return int(args[0])


class TournamentFeed(Feed):
    name = "tournament"

    def open(self, viewer, args):
        pk = _pk(args, self.name)
        reader = live_reader(pk, viewer.user)
        if reader is None:
            raise FeedError(_("No such tournament."), status=404)
        _version, manage, entry_id = reader
        if manage:  # her forms, with her CSRF secret
            key = (pk, viewer.language, "m", viewer.user_id, viewer.csrf_secret)
        elif entry_id:  # her table first (an entry is one person's)
            key = (pk, viewer.language, "e", entry_id)
        else:
            key = (pk, viewer.language)
        return Opened(
            channels=(tournament_channel(pk),), key=key, state=(pk, bool(manage or entry_id))
        )

    def render(self, viewer, state, since):
        pk, own = state
        request = viewer.request()
        if not own:
            # The shared copy, whichever spectator's viewer the group renders with.
            request.user = AnonymousUser()
        version, html = live_fragment(request, pk, shown=since)
        if version is None:
            return Rendered(since or "gone")
        if html is None:
            return Rendered(version)
        return Rendered(version, {"swap": "outerHTML", "html": html})


class ScreenFeed(Feed):
    name = "screen"

    def open(self, viewer, args):
        pk = _pk(args, self.name)
        if not Tournament.objects.filter(pk=pk).exists():
            raise FeedError(_("No such tournament."), status=404)
        # The QR code holds the site's address as the reader reached it.
        key = (pk, viewer.language, viewer.host, viewer.secure)
        return Opened(channels=(tournament_channel(pk),), key=key, state=pk)

    def render(self, viewer, state, since):
        version = screen.screen_version(state)
        if since == version:
            return Rendered(version)
        t = Tournament.objects.filter(pk=state).first()
        if t is None:
            return Rendered(since or "gone")
        request = viewer.request()
        request.user = AnonymousUser()  # the screen is public: nothing of the reader's
        html = screen.live_html(request, t, version)
        return Rendered(version, {"swap": "outerHTML", "html": html})


register(TournamentFeed())
register(ScreenFeed())
