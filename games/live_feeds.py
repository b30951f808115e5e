"""The games app's live feeds (core/live/feeds.py): the match page.

"match:<id>" (a spectator) or "match:<id>:<seat>" (a seated player asking for her seat):
the same answer the page's poll gets (games.match_pages.live_update): out-of-band swaps
for a new ply (the board as a patch, the new log lines), else the whole live panel.
The seat is checked against the viewer's own seats when the stream opens, so a stream
carries only what its seat may see; spectators of a running match share one render per
language, whoever they are (their panel holds no form and nothing of their own).
"""

from __future__ import annotations

import zlib

from django.utils.translation import gettext_lazy as _

from core.live.feeds import Feed, FeedError, Opened, Rendered, register
from core.live.publish import match_channel
from games import match_pages, selectors, visits
from games.models import Match, MatchStatus


def _int(value: str) -> int | None:
    return int(value) if value.isascii() and value.isdigit() and len(value) < 10 else None


class MatchFeed(Feed):
    name = "match"

    def open(self, viewer, args):
        if not 1 <= len(args) <= 2 or any(_int(a) is None for a in args):
            raise FeedError(_("A match feed is match:<id> or match:<id>:<seat>."))
        match = Match.objects.filter(pk=_int(args[0])).first()
        if match is None:
            raise FeedError(_("No such match."), status=404)
        requested = _int(args[1]) if len(args) == 2 else None
        seat = selectors.viewer_seat(match, viewer.user, requested)
        if requested is not None and seat is None:
            raise FeedError(_("That seat is not yours."), status=403)
        if seat is None and (match.status == MatchStatus.RUNNING or not viewer.user_id):
            key = (match.pk, None, viewer.language)  # every spectator of the running match
        else:  # her seat's hand and forms (with her CSRF secret), or a waiting match's buttons
            key = (match.pk, seat, viewer.language, viewer.user_id, viewer.csrf_secret)
        return Opened(channels=(match_channel(match.pk),), key=key, state=(match.pk, seat))

    def render(self, viewer, state, since):
        match_id, seat = state
        match = Match.objects.filter(pk=match_id).first()
        if match is None:
            return Rendered(since or "gone")
        if seat is not None:
            visits.note_visit(match_id, viewer.user)  # an open page counts as a look
        version = match_pages.match_version(match)
        request = viewer.request(seat=seat)
        if match.status == MatchStatus.RUNNING:
            if since == version:
                return Rendered(version)
            ply = (
                _int((since or "").split("-")[0]) if since and since.endswith("-running") else None
            )
            update = match_pages.live_update(request, match, ply)
            if update is None:
                return Rendered(version)
            swap, html = update
            return Rendered(version, {"swap": swap, "html": html})
        # Waiting or over: the whole panel, versioned by its text (seats joining, a rating
        # arriving); a reader who has it gets nothing.
        _swap, html = match_pages.live_update(request, match, None)
        version = f"{version}-{zlib.crc32(html.encode()):08x}"
        if since == version:
            return Rendered(version)
        return Rendered(version, {"swap": "outerHTML", "html": html})

    def touch(self, viewer, state) -> None:
        """While her stream is open she is looking (the "your move" reminder waits)."""
        if state[1] is not None:
            visits.note_visit(state[0], viewer.user)


register(MatchFeed())
