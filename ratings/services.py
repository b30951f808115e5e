"""Applying finished rated matches to rating pools: once each, in match-end order.

Every pool is updated under a lock on its row; `AppliedMatch` (unique per pool
and match) makes a second application impossible. A full recompute runs the
very same code over the whole history, so it gives the same numbers.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from games.engines.registry import get_engine
from games.models import Match, MatchStatus, Seat
from ratings.models import AppliedMatch, Rating, RatingChange, RatingPool, System
from ratings.systems import elo, openskill_rating


def default_pool(game: str) -> RatingPool:
    pool = RatingPool.objects.filter(game=game, is_default=True).first()
    if pool is None:
        pool, _ = RatingPool.objects.get_or_create(
            game=game, is_default=True, defaults={"name": get_engine(game).title}
        )
    return pool


def elo_params(pool: RatingPool) -> elo.EloParams:
    return elo.EloParams(k=pool.k, provisional_k=pool.provisional_k,
                         provisional_games=pool.provisional_games, start=pool.start_rating)  # fmt: skip


def pending_matches(pool: RatingPool):
    qs = Match.objects.filter(game=pool.game, rated=True, status=MatchStatus.FINISHED).exclude(
        pk__in=AppliedMatch.objects.filter(pool=pool).values("match_id")
    )
    if pool.variant_id:
        qs = qs.filter(variant_id=pool.variant_id)
    return qs.order_by("finished_at", "id")


def apply_pending(*, pool_id: int) -> int:
    """Apply every finished rated match not yet in the pool, oldest end first."""
    with transaction.atomic():
        pool = RatingPool.objects.select_for_update().get(pk=pool_id)
        matches = list(pending_matches(pool))
        if not matches:
            return 0
        return _apply(pool, matches)


def _apply(pool: RatingPool, matches: list[Match]) -> int:
    params = elo_params(pool)
    seats_by_match: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(match__in=matches).order_by("match_id", "index"):
        seats_by_match.setdefault(seat.match_id, []).append(seat)
    player_ids = {s.player_id for seats in seats_by_match.values() for s in seats}
    current = {
        (r.player_id, r.system): r
        for r in Rating.objects.filter(pool=pool, player_id__in=player_ids)
    }
    sequence = AppliedMatch.objects.filter(pool=pool).count()
    changes, applied, touched = [], [], {}
    for match in matches:
        seats = seats_by_match.get(match.pk, [])
        players = [s.player_id for s in seats]
        applied.append(AppliedMatch(pool=pool, match=match, sequence=sequence))
        sequence += 1
        # A player holding several seats (one shared bot in every seat) has no opponent to rate against.
        if len(set(players)) != len(players) or len(players) < 2:
            continue
        ranks = list(match.outcome["ranks"])
        elo_rows = [_row(current, touched, pool, p, System.ELO, params.start) for p in players]
        change = elo.deltas([r.value for r in elo_rows], [r.games for r in elo_rows], ranks, params)
        for row, d, rank in zip(elo_rows, change, ranks, strict=True):
            changes.append(RatingChange(pool=pool, player_id=row.player_id, match=match, system=System.ELO,
                                        before=row.value, after=row.value + d, rank=rank))  # fmt: skip
            row.value += d
            row.games += 1
        os_rows = [_row(current, touched, pool, p, System.OPENSKILL, None) for p in players]
        updated = openskill_rating.update([(r.mu, r.sigma) for r in os_rows], ranks)
        for row, (mu, sigma), rank in zip(os_rows, updated, ranks, strict=True):
            after = openskill_rating.ordinal(mu, sigma)
            changes.append(RatingChange(pool=pool, player_id=row.player_id, match=match,
                                        system=System.OPENSKILL, before=row.value, after=after, rank=rank))  # fmt: skip
            row.mu, row.sigma, row.value = mu, sigma, after
            row.games += 1
    AppliedMatch.objects.bulk_create(applied)
    new = [r for r in touched.values() if r.pk is None]
    old = [r for r in touched.values() if r.pk is not None]
    Rating.objects.bulk_create(new, batch_size=1000)
    Rating.objects.bulk_update(old, ["value", "mu", "sigma", "games"], batch_size=1000)
    RatingChange.objects.bulk_create(changes, batch_size=1000)
    return len(matches)


def _row(
    current: dict, touched: dict, pool: RatingPool, player_id: int, system: str, start: float | None
) -> Rating:
    key = (player_id, system)
    row = current.get(key)
    if row is None:
        if system == System.OPENSKILL:
            mu, sigma = openskill_rating.start()
            row = Rating(pool=pool, player_id=player_id, system=system, mu=mu, sigma=sigma,
                         value=openskill_rating.ordinal(mu, sigma))  # fmt: skip
        else:
            row = Rating(pool=pool, player_id=player_id, system=system, value=start)
        current[key] = row
    touched[key] = row
    return row


def on_match_finished(*, match_id: int) -> int:
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not match.rated:
        return 0
    default_pool(match.game)
    total = 0
    for pool in RatingPool.objects.filter(game=match.game).filter(
        Q(variant__isnull=True) | Q(variant_id=match.variant_id)
    ):
        total += apply_pending(pool_id=pool.pk)
    return total


def recompute(*, pool: RatingPool) -> int:
    """Rebuild the pool from the whole match history."""
    with transaction.atomic():
        pool = RatingPool.objects.select_for_update().get(pk=pool.pk)
        RatingChange.objects.filter(pool=pool).delete()
        Rating.objects.filter(pool=pool).delete()
        AppliedMatch.objects.filter(pool=pool).delete()
        matches = list(pending_matches(pool))
        return _apply(pool, matches) if matches else 0
