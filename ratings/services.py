"""Applying finished rated matches to rating pools: once each, in match-end order.

Every pool is updated under a lock on its row; `AppliedMatch` (unique per pool
and match) makes a second application impossible. A full recompute runs the
very same arithmetic (`_Ledger`) over the whole history, streamed in chunks
with only the columns it needs, so it gives the same numbers in memory bounded
by the number of players, not of matches.

Built-in bots (Player kind `engine_bot`) are rated only in pools that opt in
(`RatingPool.rate_builtin_bots`): elsewhere a match with any built-in seat is
applied (so it is not pending) but changes nobody's rating, the humans' nor the bots'.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from core.db import allow_long_statements
from core.live.publish import match_channel, pool_channel, publish
from games.engines.registry import get_engine
from games.models import Match, MatchStatus, Player, PlayerKind, Seat
from games.services import match_writes
from ratings.models import AppliedMatch, Rating, RatingChange, RatingPool, System
from ratings.systems import elo, openskill_rating


def default_pool(game: str) -> RatingPool:
    pool = RatingPool.objects.filter(game=game, is_default=True).first()
    if pool is None:
        pool, _ = RatingPool.objects.get_or_create(
            game=game, is_default=True, defaults={"name": get_engine(game).title}
        )
    return pool


# The pool's columns the arithmetic reads: loaded alone so that the migration that
# recomputes (0003) does not depend on columns added to the pool later.
_POOL_FIELDS = ("game", "variant", "k", "provisional_k", "provisional_games", "start_rating",
                "rate_builtin_bots")  # fmt: skip


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


class _Ledger:
    """The current ratings of a pool's players as plain lists keyed by player id.

    Both paths (one match after its end, the whole history in a recompute) do
    their arithmetic here, so they give the same numbers.
    """

    def __init__(self, pool: RatingPool, unrated: frozenset[int] = frozenset()) -> None:
        self.params = elo_params(pool)
        self.unrated = unrated  # players whose tables this pool does not rate (built-in bots)
        self.elo: dict[int, list] = {}  # player -> [value, games]
        self.openskill: dict[int, list] = {}  # player -> [mu, sigma, value, games]

    def rates(self, players: list[int]) -> bool:
        """Whether this table changes ratings: two or more distinct players and, unless
        the pool opts in, no built-in bot among them."""
        return _rateable(players) and self.unrated.isdisjoint(players)

    def apply(self, players: list[int], ranks: list[int]) -> list[tuple]:
        """Rate one table; return its changes as (player, system, before, after, rank)."""
        out = []
        start = self.params.start
        elo_rows = [self.elo.get(p) or self.elo.setdefault(p, [start, 0]) for p in players]
        change = elo.deltas([r[0] for r in elo_rows], [r[1] for r in elo_rows], ranks, self.params)
        for player, row, d, rank in zip(players, elo_rows, change, ranks, strict=True):
            out.append((player, System.ELO, row[0], row[0] + d, rank))
            row[0] += d
            row[1] += 1
        os_rows = [self.openskill.get(p) or self._new_openskill(p) for p in players]
        updated = openskill_rating.update([(r[0], r[1]) for r in os_rows], ranks)
        for player, row, (mu, sigma), rank in zip(players, os_rows, updated, ranks, strict=True):
            after = openskill_rating.ordinal(mu, sigma)
            out.append((player, System.OPENSKILL, row[2], after, rank))
            row[0], row[1], row[2] = mu, sigma, after
            row[3] += 1
        return out

    def store(self, pool: RatingPool, rows: dict, keys) -> None:
        """Write the ledger's values for ``keys`` ((player, system) pairs) into their Rating
        rows: ``rows`` holds the existing ones by key, the missing ones are created."""
        new, old = [], []
        for player, system in keys:
            row = rows.get((player, system))
            if row is None:
                row = Rating(pool=pool, player_id=player, system=system)
                new.append(row)
            else:
                old.append(row)
            if system == System.ELO:
                row.value, row.games = self.elo[player]
            else:
                row.mu, row.sigma, row.value, row.games = self.openskill[player]
        Rating.objects.bulk_create(new, batch_size=1000)
        Rating.objects.bulk_update(old, ["value", "mu", "sigma", "games"], batch_size=1000)

    def _new_openskill(self, player: int) -> list:
        mu, sigma = openskill_rating.start()
        row = self.openskill[player] = [mu, sigma, openskill_rating.ordinal(mu, sigma), 0]
        return row


def _rateable(players: list[int]) -> bool:
    # A player holding several seats (one shared bot in every seat) has no opponent to rate against.
    return len(players) >= 2 and len(set(players)) == len(players)


def builtin_bots(pool: RatingPool, player_ids=None) -> frozenset[int]:
    """The built-in bots (of `player_ids`, else all) whose tables `pool` leaves unrated:
    none when the pool opts in. Few rows: one per bot kind and setting."""
    if pool.rate_builtin_bots:
        return frozenset()
    qs = Player.objects.filter(kind=PlayerKind.ENGINE_BOT)
    if player_ids is not None:
        qs = qs.filter(pk__in=player_ids)
    return frozenset(qs.values_list("pk", flat=True))


def _apply(pool: RatingPool, matches: list[Match]) -> int:
    """Apply a few matches (those pending after a match end) through the ORM."""
    seats_by_match: dict[int, list[int]] = {}
    for match_id, player_id in (
        Seat.objects.filter(match_id__in=[m.pk for m in matches])
        .order_by("match_id", "index")
        .values_list("match_id", "player_id")
    ):
        seats_by_match.setdefault(match_id, []).append(player_id)
    player_ids = {p for players in seats_by_match.values() for p in players}
    rows = {
        (r.player_id, r.system): r
        for r in Rating.objects.filter(pool=pool, player_id__in=player_ids)
    }
    ledger = _Ledger(pool, builtin_bots(pool, player_ids))
    for (player_id, system), r in rows.items():
        if system == System.ELO:
            ledger.elo[player_id] = [r.value, r.games]
        else:
            ledger.openskill[player_id] = [r.mu, r.sigma, r.value, r.games]
    sequence = AppliedMatch.objects.filter(pool=pool).count()
    changes, applied, touched = [], [], set()
    for match in matches:
        applied.append(AppliedMatch(pool=pool, match=match, sequence=sequence))
        sequence += 1
        players = seats_by_match.get(match.pk, [])
        if not ledger.rates(players):
            continue
        for player, system, before, after, rank in ledger.apply(
            players, list(match.outcome["ranks"])
        ):
            changes.append(RatingChange(pool=pool, player_id=player, match=match, system=system,
                                        before=before, after=after, rank=rank))  # fmt: skip
            touched.add((player, system))
    AppliedMatch.objects.bulk_create(applied)
    ledger.store(pool, rows, sorted(touched))
    RatingChange.objects.bulk_create(changes, batch_size=1000)
    # The leaderboards, and each match's page: its "being rated…" gives way to the changes.
    publish(pool_channel(pool.game), *(match_channel(m.pk) for m in matches))
    return len(matches)


def on_match_finished(*, match_id: int) -> int:
    return on_matches_finished(match_ids=[match_id])


def on_matches_finished(*, match_ids: list[int]) -> int:
    """Apply what waits in the pools of these matches' games and variants, each pool
    once however many of its matches ended together; the number of matches applied."""
    kinds = set(
        Match.objects.filter(pk__in=match_ids, rated=True).values_list("game", "variant_id")
    )
    pools: set[int] = set()
    for game in {game for game, _ in kinds}:
        default_pool(game)
        variants = [v for g, v in kinds if g == game and v is not None]
        pools |= set(
            RatingPool.objects.filter(game=game)
            .filter(Q(variant__isnull=True) | Q(variant_id__in=variants))
            .values_list("pk", flat=True)
        )
    applied = sum(apply_pending(pool_id=pool_id) for pool_id in sorted(pools))
    _tell_players(match_ids)
    return applied


def _tell_players(match_ids: list[int]) -> None:
    """Each seated human's place and rating change, once the pools have them (the
    notifications app sits above this one: imported lazily, as tournaments does)."""
    from notifications.game_notices import match_finished_safely

    ids = list(match_ids)
    transaction.on_commit(lambda: match_finished_safely(ids))


def set_rate_builtin_bots(*, pool: RatingPool, value: bool) -> int | None:
    """Opt the pool in or out of rating built-in bots' tables and rebuild it under the new
    rule (the matches already applied were judged by the old one); the number of matches
    recomputed, None when nothing changed."""
    with transaction.atomic():
        locked = RatingPool.objects.select_for_update().get(pk=pool.pk)
        if locked.rate_builtin_bots == value:
            return None
        locked.rate_builtin_bots = value
        locked.save(update_fields=["rate_builtin_bots"])
        pool.rate_builtin_bots = value
        publish(pool_channel(locked.game))
        return recompute_pool(locked.pk)


RECOMPUTE_CHUNK = 5000

_CHANGE_COLUMNS = ("pool_id", "player_id", "match_id", "system", "before", "after", "rank",
                   "created_at")  # fmt: skip
_APPLIED_COLUMNS = ("pool_id", "match_id", "sequence", "applied_at")
_RATING_COLUMNS = ("pool_id", "player_id", "system", "value", "mu", "sigma", "games", "updated_at")


def recompute(*, pool: RatingPool, chunk_size: int = RECOMPUTE_CHUNK) -> int:
    """Rebuild the pool from the whole match history, in bounded memory.

    The history is read as one ordered stream (a server-side cursor on
    PostgreSQL) of only the columns the arithmetic needs, fetched and written
    `chunk_size` at a time (COPY on PostgreSQL); what stays in memory is one
    entry per player, however long the history.
    """
    recomputed = recompute_pool(pool.pk, chunk_size=chunk_size)
    # Announced here, not in recompute_pool: the migration 0003 runs that one too, maybe
    # before the table that the embedded backend announces through exists.
    publish(pool_channel(pool.game))
    return recomputed


def recompute_pool(pool_id: int, *, chunk_size: int = RECOMPUTE_CHUNK,
                   rate_builtin_bots: bool | None = None) -> int:  # fmt: skip
    """`recompute` by the pool's id, reading only the pool's columns it needs (so the
    migration 0003 can call it). `rate_builtin_bots` overrides the pool's own setting
    (True: the rule before 0003, every rated table counts)."""
    with transaction.atomic():
        allow_long_statements()  # the whole history in one transaction: past the 10 s default
        pool = RatingPool.objects.select_for_update().only(*_POOL_FIELDS).get(pk=pool_id)
        if rate_builtin_bots is not None:
            pool.rate_builtin_bots = rate_builtin_bots
        _clear(pool)
        ledger = _Ledger(pool, builtin_bots(pool))
        stamp = match_writes.db_datetime(timezone.now())
        pool_id = pool.pk  # a plain int: the loop runs once per match in the history
        changes: list[tuple] = []
        applied: list[tuple] = []
        sequence = 0
        for match_id, players, ranks in _history(pool, chunk_size):
            applied.append((pool_id, match_id, sequence, stamp))
            sequence += 1
            if ledger.rates(players):
                for player, system, before, after, rank in ledger.apply(players, json.loads(ranks)):
                    changes.append((pool_id, player, match_id, system, before, after, rank, stamp))
            if len(applied) >= chunk_size:
                _write_chunk(applied, changes)
                applied, changes = [], []
        _write_chunk(applied, changes)
        ratings = [
            (pool_id, player, System.ELO, value, None, None, games, stamp)
            for player, (value, games) in ledger.elo.items()
        ] + [
            (pool_id, player, System.OPENSKILL, value, mu, sigma, games, stamp)
            for player, (mu, sigma, value, games) in ledger.openskill.items()
        ]
        match_writes.insert_rows(Rating._meta.db_table, _RATING_COLUMNS, ratings)
        return sequence


def _clear(pool: RatingPool) -> None:
    """The pool's rows go in one set-wise DELETE per table (by the pool_id index),
    not through the ORM's collector; nothing refers to these rows."""
    with connection.cursor() as cursor:
        for model in (RatingChange, AppliedMatch, Rating):
            table = connection.ops.quote_name(model._meta.db_table)
            cursor.execute(f"DELETE FROM {table} WHERE pool_id = %s", [pool.pk])


def _write_chunk(applied: list[tuple], changes: list[tuple]) -> None:
    if applied:
        match_writes.insert_rows(AppliedMatch._meta.db_table, _APPLIED_COLUMNS, applied)
    if changes:
        match_writes.insert_rows(RatingChange._meta.db_table, _CHANGE_COLUMNS, changes)


def _history(pool: RatingPool, chunk_size: int) -> Iterator[tuple[int, list[int], str | None]]:
    """(match id, player ids by seat, the outcome's ranks as JSON text) of every match the
    pool counts, in the order of `pending_matches` (match end, then id).

    One query joining the seats, read `chunk_size` rows at a time: a server-side
    cursor on PostgreSQL, SQLite's own stepping elsewhere. A match's seat rows
    may straddle two fetches, so rows are grouped here.
    """
    qn = connection.ops.quote_name
    match_t, seat_t = qn(Match._meta.db_table), qn(Seat._meta.db_table)
    if connection.vendor == "postgresql":
        ranks = "(m.outcome -> 'ranks')::text"
    else:
        ranks = "json_extract(m.outcome, '$.ranks')"
    where = ["m.game = %s", "m.rated", "m.status = %s"]
    params: list = [pool.game, MatchStatus.FINISHED]
    if pool.variant_id:
        where.append("m.variant_id = %s")
        params.append(pool.variant_id)
    sql = (
        f"SELECT m.id, s.player_id, {ranks} FROM {match_t} m "
        f"LEFT JOIN {seat_t} s ON s.match_id = m.id WHERE {' AND '.join(where)} "
        f"ORDER BY m.finished_at, m.id, s.{qn('index')}"
    )
    current, players, current_ranks = None, [], None
    with connection.chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(chunk_size):
            for match_id, player_id, match_ranks in rows:
                if match_id != current:
                    if current is not None:
                        yield current, players, current_ranks
                    current, players, current_ranks = match_id, [], match_ranks
                if player_id is not None:
                    players.append(player_id)
    if current is not None:
        yield current, players, current_ranks
