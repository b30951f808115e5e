"""The match list's live feed (core/live/feeds.py): "matches:<status>:<game>:<page>", "-"
for a filter left empty, e.g. "matches:running:-:1".

It changes on MATCHES_CHANNEL, announced when a match is created, takes a seat, starts,
ends, or is cancelled or aborted (games/services/live.py, dispatch.announce). A move is
not announced there: the "Moves" column is brought up to date with the next change of
the list, not at every ply (each move of every match on the page would cost a render of
the whole page for its readers). The rows show nothing of the reader but her language,
so everyone reading one page of one filter in one language shares one render.
"""

from __future__ import annotations

import zlib

from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from core.live.feeds import Feed, FeedError, Opened, Rendered, register
from core.live.publish import MATCHES_CHANNEL
from games import match_pages
from games.engines.registry import ENGINES
from games.models import MatchStatus

NAME = "matches"
EMPTY = "-"


def feed_of(params, page) -> str:
    """The data-live-feed value of the rows for these GET parameters ("" when a filter is
    no status or game: such a page keeps polling, it would refuse the whole stream)."""
    status, game = params.get("status") or "", params.get("game") or ""
    if (status and status not in MatchStatus.values) or (game and game not in ENGINES):
        return ""
    return f"{NAME}:{status or EMPTY}:{game or EMPTY}:{page.number}@{version_of(page)}"


def version_of(page) -> str:
    """A checksum of what a write can change in the rows (the "started …ago" text moves
    with the clock: it follows at the next change)."""
    rows = tuple(
        (m.pk, m.status, m.ply, tuple((s.player_id, s.rank) for s in m.seats.all())) for m in page
    )
    return f"{zlib.crc32(repr((rows, page.paginator.count)).encode()):08x}"


class MatchListFeed(Feed):
    name = NAME

    def open(self, viewer, args):
        if len(args) != 3:
            raise FeedError(_("A match list's feed is matches:<status>:<game>:<page>."))
        status, game, number = ("" if a == EMPTY else a for a in args)
        if game and game not in ENGINES:
            raise FeedError(_("No such game."), status=404)
        if status and status not in MatchStatus.values:
            raise FeedError(_("No such match status."))
        if not (number.isascii() and number.isdigit() and 0 < len(number) < 7 and int(number)):
            raise FeedError(_("A page is a number from 1."))
        state = (status, game, int(number))
        return Opened(channels=(MATCHES_CHANNEL,), key=(*state, viewer.language), state=state)

    def render(self, viewer, state, since):
        status, game, number = state
        request = viewer.request(status=status or None, game=game or None,
                                 page=number if number > 1 else None)  # fmt: skip
        # Rendered as nobody: the readers who share it may be anyone (and the context
        # processors' counts for a signed-in person are not needed for these rows).
        request.user = AnonymousUser()
        page, feed = match_pages.match_rows(request.GET)
        version = feed.rpartition("@")[2]
        if since == version:
            return Rendered(version)
        context = {"page": page, "statuses": MatchStatus.choices, "live_feed": feed}
        html = render_to_string("games/match_list.html#rows", context, request)
        return Rendered(version, {"swap": "outerHTML", "html": html})


register(MatchListFeed())
