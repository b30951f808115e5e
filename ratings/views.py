from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import condition

from games.engines.registry import ENGINES
from games.models import Player
from ratings import charts, live_feeds, selectors, services
from ratings.models import RatingPool, System


def _pool(game: str) -> RatingPool:
    if game not in ENGINES:
        raise Http404("unknown game")
    return services.default_pool(game)


def _board_context(request, game: str) -> dict:
    pool = _pool(game)
    system = request.GET.get("system", System.ELO)
    if system not in System.values:
        system = System.ELO
    kind = request.GET.get("kind") or selectors.HUMANS
    if kind not in selectors.LEADERBOARD_KINDS:
        kind = selectors.HUMANS  # a stale or typed link: the default list, as for system
    # The push feed's version before the rows: a change between the two is announced
    # after it commits and brings the page up (ratings/live_feeds.py).
    live_feed = f"{live_feeds.spec(game, system, kind)}@{live_feeds.version_of(game)}"
    return {"pool": pool, "game": ENGINES[game], "system": system, "kind": kind,
            "rows": selectors.leaderboard(pool, system=system, kind=kind), "games": sorted(ENGINES.values(), key=lambda e: e.title),
            "live_feed": live_feed}  # fmt: skip


def leaderboard(request, game: str):
    return render(request, "ratings/leaderboard.html", _board_context(request, game))


def _board_etag(request, game: str) -> str:
    return f"{game}-{selectors.last_change_id(game)}-{request.GET.urlencode()}"


@condition(etag_func=_board_etag)
def leaderboard_rows(request, game: str):
    response = render(request, "ratings/leaderboard.html#rows", _board_context(request, game))
    response["Cache-Control"] = "no-cache"
    return response


def player_page(request, name: str):
    player = get_object_or_404(Player, name=name)
    pools = [
        {**p, "chart": mark_safe(charts.rating_chart(p["points"], label=p["pool"].name))}
        for p in selectors.elo_pools(player)
    ]
    seats = selectors.recent_finished_seats(player)
    user = request.user
    is_me = user.is_authenticated and player.user_id == user.pk
    return render(request, "ratings/player.html", {"player": player, "pools": pools, "seats": seats,
                                                   "ratings": selectors.player_ratings(player),
                                                   "is_me": is_me,
                                                   "can_challenge": user.is_authenticated and not is_me
                                                   and player.is_active},
                  )  # fmt: skip
