"""The leaderboard's live feed (core/live/feeds.py): "board:<game>:<system>:<kind>", e.g.
"board:silkroad:elo:humans", the rows of /ratings/<game>/.

It changes on the game's pool channel, announced where ratings are applied, replayed
after a correction or recomputed (ratings/services.py, ratings/replay.py). Its version is
the game's newest rating change, as the rows' ETag (a replay or a recompute writes new
changes, so it moves too). The rows show nothing of the reader but her language: one
render per board and language.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from core.live.feeds import Feed, FeedError, Opened, Rendered, register
from core.live.publish import pool_channel
from games.engines.registry import ENGINES
from ratings import selectors
from ratings.models import System

NAME = "board"


def spec(game: str, system: str, kind: str) -> str:
    return f"{NAME}:{game}:{system}:{kind}"


def version_of(game: str) -> str:
    return str(selectors.last_change_id(game) or 0)


class LeaderboardFeed(Feed):
    name = NAME

    def open(self, viewer, args):
        if len(args) != 3:
            raise FeedError(_("A leaderboard's feed is board:<game>:<system>:<kind>."))
        game, system, kind = args
        if game not in ENGINES:
            raise FeedError(_("No such game."), status=404)
        if system not in System.values or kind not in selectors.LEADERBOARD_KINDS:
            raise FeedError(_("No such leaderboard."))
        state = (game, system, kind)
        return Opened(channels=(pool_channel(game),), key=(*state, viewer.language), state=state)

    def render(self, viewer, state, since):
        from ratings import views  # the page's own context (views imports this module)

        game, system, kind = state
        if since is not None and since == version_of(game):
            return Rendered(since)
        request = viewer.request(system=system, kind=kind)
        request.user = AnonymousUser()  # shared by every reader: rendered as nobody
        context = views._board_context(request, game)
        version = context["live_feed"].rpartition("@")[2]  # taken before its rows
        html = render_to_string("ratings/leaderboard.html#rows", context, request)
        return Rendered(version, {"swap": "outerHTML", "html": html})


register(LeaderboardFeed())
