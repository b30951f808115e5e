"""Read side of ratings: leaderboards with trends, a player's history, match predictions."""

from __future__ import annotations

from django.db.models import Q

from games.models import Match, MatchStatus, Player, PlayerKind, Seat
from ratings.models import AppliedMatch, Rating, RatingChange, RatingPool, System
from ratings.services import default_pool, elo_params
from ratings.systems import elo, openskill_rating

TREND_GAMES = 5

# Who a leaderboard lists: people by default; bots (built-in and programs) in their own
# list, so a bot is never first among people; "all" mixes them (the API's old default).
HUMANS, BOTS, EVERYONE = "humans", "bots", "all"
LEADERBOARD_KINDS = (HUMANS, BOTS, EVERYONE)
BOT_KINDS = (PlayerKind.ENGINE_BOT, PlayerKind.EXTERNAL_BOT)


def leaderboard(
    pool: RatingPool, *, system: str = System.ELO, kind: str = HUMANS, limit: int = 200
) -> list[dict]:
    qs = Rating.objects.filter(pool=pool, system=system).select_related("player").order_by("-value")
    if kind == HUMANS:
        qs = qs.filter(player__kind=PlayerKind.HUMAN)
    elif kind == BOTS:
        qs = qs.filter(player__kind__in=BOT_KINDS)
    elif kind != EVERYONE:
        raise ValueError(f"unknown leaderboard kind {kind!r}")
    rows = list(qs[:limit])
    trends = _trends(pool, system, [r.player_id for r in rows])
    params = elo_params(pool)
    return [
        {
            "rank": i,
            "player": r.player.name,
            "player_id": r.player_id,
            "kind": r.player.kind,
            "rating": round(r.value, 2),
            "games": r.games,
            "trend": round(trends.get(r.player_id, 0.0), 2),
            "provisional": system == System.ELO and r.games < params.provisional_games,
        }
        for i, r in enumerate(rows, start=1)
    ]


def _trends(pool, system, player_ids) -> dict[int, float]:
    """Rating change over each player's last few games."""
    out: dict[int, float] = {}
    seen: dict[int, int] = {}
    changes = (
        RatingChange.objects.filter(pool=pool, system=system, player_id__in=player_ids)
        .order_by("player_id", "-id")
        .values_list("player_id", "before", "after")
    )
    for player_id, before, after in changes:
        if seen.get(player_id, 0) < TREND_GAMES:
            out[player_id] = out.get(player_id, 0.0) + after - before
            seen[player_id] = seen.get(player_id, 0) + 1
    return out


def player_history(player: Player, pool: RatingPool, system: str = System.ELO) -> list[dict]:
    return [
        {
            "match": c.match_id,
            "before": round(c.before, 2),
            "after": round(c.after, 2),
            "rank": c.rank,
            "at": c.created_at.isoformat(),
        }  # fmt: skip
        for c in RatingChange.objects.filter(pool=pool, player=player, system=system).order_by("id")
    ]


def player_ratings(player: Player) -> list[dict]:
    out = []
    for r in (
        Rating.objects.filter(player=player).select_related("pool").order_by("pool__game", "system")
    ):
        out.append({"pool": r.pool.name, "game": r.pool.game, "system": r.system, "rating": round(r.value, 2),
                    "games": r.games, "history": player_history(player, r.pool, r.system)})  # fmt: skip
    return out


def elo_pools(player: Player) -> list[dict]:
    """Per pool the player has an Elo rating in: the pool, the rating, and the rating
    after each of his rated matches (starting from the one before the first)."""
    out = []
    for rating in player.ratings.filter(system=System.ELO).select_related("pool"):
        history = player_history(player, rating.pool)
        points = [history[0]["before"]] + [h["after"] for h in history] if history else []
        out.append({"pool": rating.pool, "rating": rating, "points": points})
    return out


def recent_finished_seats(player: Player, *, limit: int = 20) -> list[Seat]:
    """His seats in his last finished matches, newest first."""
    return list(
        Seat.objects.filter(player=player, match__status=MatchStatus.FINISHED)
        .select_related("match")
        .order_by("-match__finished_at")[:limit]
    )


def last_change_id(game: str) -> int | None:
    """The newest rating change of the game: the leaderboard moves only when this does."""
    return (
        RatingChange.objects.filter(pool__game=game)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )


def elo_rating_of(player: Player, game: str) -> float:
    """The hook tournaments use to seed by rating (settings.TOURNAMENT_RATING_LOOKUP)."""
    pool = default_pool(game)
    row = Rating.objects.filter(pool=pool, player=player, system=System.ELO).first()
    return row.value if row else pool.start_rating


def predict_match(match: Match) -> dict | None:
    """Expected finishing order and win probability of each seat, from the default pool.

    Elo gives each seat's expected score against the table (mean of pairwise
    expectations) and so the expected order; OpenSkill gives win probabilities."""
    seats = list(match.seats.select_related("player").order_by("index"))
    if len(seats) < 2:
        return None
    pool = default_pool(match.game)
    ratings = {
        (r.player_id, r.system): r
        for r in Rating.objects.filter(pool=pool, player__in=[s.player for s in seats])
    }
    elo_values = [
        getattr(ratings.get((s.player_id, System.ELO)), "value", pool.start_rating) for s in seats
    ]
    start = openskill_rating.start()
    os_states = [
        (r.mu, r.sigma) if (r := ratings.get((s.player_id, System.OPENSKILL))) else start
        for s in seats
    ]
    n = len(seats)
    expected = [
        sum(elo.expected(elo_values[i], elo_values[j]) for j in range(n) if j != i) / (n - 1)
        for i in range(n)
    ]
    order = sorted(range(n), key=lambda i: -expected[i])
    win = openskill_rating.win_probabilities(os_states)
    return {
        "pool": pool.name,
        "seats": [
            {
                "seat": i,
                "elo": round(elo_values[i], 2),
                "expected_score": round(expected[i], 4),
                "expected_place": order.index(i) + 1,
                "win_probability": round(win[i], 4),
            }  # fmt: skip
            for i in range(n)
        ],
    }


def match_rating_changes(match: Match) -> dict:
    """The Elo changes a match brought in its game's default pool, by player id (the
    hook behind the result banner, settings.MATCH_RATING_CHANGES); empty while the
    match waits to be applied.

    A match the pool applied without changing anyone (a built-in bot at the table in a
    pool that does not rate them, one player in several seats) gives every seat a
    change of 0 from his rating then, so the banner does not wait for one for ever."""
    if not match.rated:
        return {}
    pool = RatingPool.objects.filter(game=match.game, is_default=True).first()
    if pool is None:
        return {}
    changes = {
        c.player_id: {"before": c.before, "after": c.after, "delta": c.after - c.before}
        for c in RatingChange.objects.filter(match=match, system=System.ELO, pool=pool)
    }
    if changes or not AppliedMatch.objects.filter(pool=pool, match=match).exists():
        return changes
    earlier = Q(match__finished_at__lt=match.finished_at) | Q(
        match__finished_at=match.finished_at, match_id__lt=match.pk
    )
    out = {}
    for player_id in match.seats.values_list("player_id", flat=True):
        then = (
            RatingChange.objects.filter(pool=pool, system=System.ELO, player_id=player_id)
            .filter(earlier)
            .order_by("-match__finished_at", "-match_id")
            .values_list("after", flat=True)
            .first()
        )
        then = pool.start_rating if then is None else then
        out[player_id] = {"before": then, "after": then, "delta": 0.0, "unchanged": True}
    return out
