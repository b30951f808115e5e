"""Replaying a pool from one match on, after that match's result was corrected.

A corrected result changes the ratings every later match started from, so the
pool's rows from that match on (in history order: match end, then id) are
rebuilt; the earlier history is only read, through the same `_Ledger` arithmetic
as `recompute`, so the ratings afterwards are those of a full recompute. Rows of
earlier matches are not rewritten.
"""

from __future__ import annotations

import json

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from core.db import allow_long_statements
from core.live.publish import match_channel, pool_channel, publish
from games.models import Match
from games.services import match_writes
from ratings.models import AppliedMatch, Rating, RatingChange, RatingPool, System
from ratings.services import (
    RECOMPUTE_CHUNK,
    _apply,
    _history,
    _Ledger,
    _write_chunk,
    builtin_bots,
    on_match_finished,
    pending_matches,
)

ANNOUNCED_MATCHES = 200  # match pages told of a replay, at most


def pools_of(match: Match):
    """The pools that count `match` (the game's, and its variant's if any)."""
    on_match_finished(match_id=match.pk)  # makes the default pool and applies what waits
    return RatingPool.objects.filter(game=match.game).filter(
        Q(variant__isnull=True) | Q(variant_id=match.variant_id)
    )


def replay_from(*, pool: RatingPool, match: Match, chunk_size: int = RECOMPUTE_CHUNK) -> int:
    """Rebuild `pool` from `match` on; returns the number of matches replayed."""
    with transaction.atomic():
        allow_long_statements()  # reads the pool's whole history, as a recompute does
        pool = RatingPool.objects.select_for_update().get(pk=pool.pk)
        # Everything finished must be applied first: an unapplied match left in the earlier
        # history would be counted here and again when it is applied.
        waiting = list(pending_matches(pool))
        if waiting:
            _apply(pool, waiting)
        match = Match.objects.get(pk=match.pk)
        later = Match.objects.filter(
            Q(finished_at__gt=match.finished_at)
            | Q(finished_at=match.finished_at, pk__gte=match.pk)
        )
        suffix = AppliedMatch.objects.filter(pool=pool, match__in=later)
        RatingChange.objects.filter(pool=pool, match_id__in=suffix.values("match_id")).delete()
        replayed = set(suffix.values_list("match_id", flat=True))
        suffix.delete()
        sequence = (
            AppliedMatch.objects.filter(pool=pool).aggregate(m=Max("sequence"))["m"] or -1
        ) + 1

        ledger = _Ledger(pool, builtin_bots(pool))
        stamp = match_writes.db_datetime(timezone.now())
        applied: list[tuple] = []
        changes: list[tuple] = []
        for match_id, players, ranks in _history(pool, chunk_size):
            rows = ledger.apply(players, json.loads(ranks)) if ledger.rates(players) else []
            if match_id not in replayed:
                continue  # earlier history: read only
            applied.append((pool.pk, match_id, sequence, stamp))
            sequence += 1
            changes.extend(
                (pool.pk, player, match_id, system, before, after, rank, stamp)
                for player, system, before, after, rank in rows
            )
            if len(applied) >= chunk_size:
                _write_chunk(applied, changes)
                applied, changes = [], []
        _write_chunk(applied, changes)
        _store_ratings(pool, ledger)
        # The leaderboards, and the pages of the matches whose changes were rewritten (the
        # corrected one first; a long tail of later ones is left to a reload).
        later = sorted(replayed - {match.pk})[:ANNOUNCED_MATCHES]
        publish(pool_channel(pool.game), match_channel(match.pk), *map(match_channel, later))
        return len(replayed)


def _store_ratings(pool: RatingPool, ledger: _Ledger) -> None:
    """Every player's rating as the ledger has it (one row per player and system)."""
    rows = {(r.player_id, r.system): r for r in Rating.objects.filter(pool=pool)}
    keys = [(p, System.ELO) for p in ledger.elo] + [(p, System.OPENSKILL) for p in ledger.openskill]
    ledger.store(pool, rows, keys)
    # A match taken out of the history (a deleted result) may have been someone's only
    # game: a recompute has no row for him, so neither does the replay.
    kept = set(keys)
    gone = [row.pk for key, row in rows.items() if key not in kept]
    if gone:
        Rating.objects.filter(pk__in=gone).delete()
