"""Time of the staff operations page (/admin/operations/) over a long match history.

Writes 100,000 matches (by default) on the configured database (PostgreSQL with
DATABASE_URL; SQLite otherwise) spread over the three games, each game with a bench
variant and a rating pool for it: 92% finished (60% of them rated, all applied to
both the variant pool and the game's default pool except 25 per game), 5% aborted,
1% not started and 2% running, 50 of which are overdue for a decision. Then a
staff user asks for the page through Django's test client (whole stack in-process:
middleware, queries, template), a first visit and `--repeat` more, and the time
of each section's queries is printed. The target is under a second.

The bench rows are deleted afterwards unless `--keep`. Results are written to
var/bench/operations_page.json.

    python -m benchmarks.operations_page [--quick] [--matches 100000] [--repeat 20] [--keep]
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import timedelta
from pathlib import Path

from benchmarks.common import setup_django, write_json

ROOT = Path(__file__).resolve().parents[1]
BENCH = "bench operations"
GAMES = ("greatwall", "silkroad", "yspahan")
PENDING_PER_GAME = 25
OVERDUE = 50


def populate(n_matches: int) -> dict:
    """The bench variants, pools and matches; returns what it made, for `cleanup`."""
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.utils import timezone

    from games.models import Match, MatchStatus, Variant
    from games.services.match_writes import db_datetime, insert_rows
    from ratings import services as rating_services
    from ratings.models import AppliedMatch, RatingPool

    call_command("migrate", verbosity=0)
    now = timezone.now()
    kept = Match.objects.filter(variant__name=BENCH)
    if kept.count() == n_matches:  # left by --keep: only the deadlines move with the clock
        running = kept.filter(status=MatchStatus.RUNNING).order_by("id")
        late = list(running.values_list("id", flat=True))[-OVERDUE:]
        running.update(deadline=now + timedelta(hours=2))
        Match.objects.filter(id__in=late).update(deadline=now - timedelta(minutes=10))
        return {"matches": n_matches, "applied": AppliedMatch.objects.filter(
            match__variant__name=BENCH).count(), "reused": True}  # fmt: skip
    cleanup()
    variants, pools = {}, {}
    for game in GAMES:
        variants[game] = Variant.objects.create(game=game, name=BENCH)
        pools[game] = [
            RatingPool.objects.create(game=game, name=f"{BENCH} {game}", variant=variants[game]),
            rating_services.default_pool(game),
        ]
    n_running, n_pending, n_aborted = n_matches // 50, n_matches // 100, n_matches // 20
    n_finished = n_matches - n_running - n_pending - n_aborted
    rows = []
    for i in range(n_matches):
        game = GAMES[i % len(GAMES)]
        m = Match(game=game, variant=variants[game], seed=i, options={}, ply=40,
                  created_at=now, per_move_s=60)  # fmt: skip
        if i < n_finished:
            m.status, m.rated = MatchStatus.FINISHED, i % 5 < 3
            m.started_at = m.finished_at = now - timedelta(minutes=n_matches - i)
            m.outcome = {"ranks": [1, 2], "engine_ranks": [1, 2], "scores": None,
                         "forfeited": [False, False]}  # fmt: skip
        elif i < n_finished + n_aborted:
            m.status, m.abort_reason = MatchStatus.ABORTED, "bench"
        elif i < n_finished + n_aborted + n_pending:
            m.status = MatchStatus.PENDING
        else:
            m.status, m.to_act, m.started_at = MatchStatus.RUNNING, 0, now
            late = i >= n_matches - OVERDUE
            m.deadline = now + (timedelta(minutes=-10) if late else timedelta(hours=2))
        rows.append(m)
    with transaction.atomic():
        Match.objects.bulk_create(rows, batch_size=5000)
        rated = Match.objects.filter(variant__name=BENCH, rated=True, status=MatchStatus.FINISHED)
        applied = []
        for game in GAMES:
            ids = list(rated.filter(game=game).order_by("finished_at", "id")
                       .values_list("id", flat=True))  # fmt: skip
            done = ids[: len(ids) - PENDING_PER_GAME]
            for pool in pools[game]:
                start = (AppliedMatch.objects.filter(pool=pool).order_by("-sequence")
                         .values_list("sequence", flat=True).first() or 0)  # fmt: skip
                applied += [(pool.pk, match_id, start + k + 1, db_datetime(now))
                            for k, match_id in enumerate(done)]  # fmt: skip
        insert_rows(AppliedMatch._meta.db_table, ("pool_id", "match_id", "sequence", "applied_at"),
                    applied)  # fmt: skip
    # As autovacuum would soon after such a load: planner statistics and visibility map.
    with connection.cursor() as cursor:
        for model in (Match, AppliedMatch):
            table = connection.ops.quote_name(model._meta.db_table)
            cursor.execute(f"VACUUM ANALYZE {table}" if connection.vendor == "postgresql"
                           else f"ANALYZE {table}")  # fmt: skip
    return {"matches": n_matches, "applied": len(applied)}


def cleanup() -> None:
    from django.db import connection, transaction

    from games.models import Match, Variant
    from ratings.models import AppliedMatch

    with transaction.atomic(), connection.cursor() as cursor:
        qn = connection.ops.quote_name
        bench_matches = (f"SELECT m.id FROM {qn(Match._meta.db_table)} m JOIN "
                         f"{qn(Variant._meta.db_table)} v ON v.id = m.variant_id WHERE v.name = %s")  # fmt: skip
        cursor.execute(f"DELETE FROM {qn(AppliedMatch._meta.db_table)} WHERE match_id IN ({bench_matches})",
                       [BENCH])  # fmt: skip
        cursor.execute(
            f"DELETE FROM {qn(Match._meta.db_table)} WHERE id IN ({bench_matches})", [BENCH]
        )
    Variant.objects.filter(name=BENCH).delete()  # and the bench pools with them


def measure(repeat: int) -> dict:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from operations import selectors

    user, _ = get_user_model().objects.get_or_create(
        username="bench-operations", defaults={"is_staff": True, "is_superuser": True}
    )
    client = Client(
        HTTP_HOST=(settings.ALLOWED_HOSTS or ["localhost"])[0].lstrip(".") or "localhost"
    )
    client.force_login(user)
    try:
        # The process's own first request pays for imports and URL and template loading:
        # spent on the admin index, so that the first page visit measures the page.
        client.get("/admin/")
        times = []
        for _ in range(repeat + 1):
            reset_queries()
            t0 = time.perf_counter()
            with CaptureQueriesContext(connection) as queries:
                response = client.get("/admin/operations/")
            times.append(time.perf_counter() - t0)
            assert response.status_code == 200, response.status_code
        html = response.content.decode()
        sections = {}
        for name, fn in [("workers", selectors.workers), ("queue", selectors.queue_lengths),
                         ("overdue", selectors.overdue_matches), ("failures", selectors.failures),
                         ("pools", selectors.pending_pools)]:  # fmt: skip
            t0 = time.perf_counter()
            fn()
            sections[name] = round((time.perf_counter() - t0) * 1000, 1)
        overdue = selectors.overdue_matches().count
        pools = {p.pool.name: p.pending for p in selectors.pending_pools()}
    finally:
        user.delete()
    warm = sorted(times[1:])
    return {
        "vendor": connection.vendor,
        "first_ms": round(times[0] * 1000, 1),
        "warm_median_ms": round(statistics.median(warm) * 1000, 1),
        "warm_max_ms": round(warm[-1] * 1000, 1),
        "queries": len(queries),
        "sections_ms": sections,
        "overdue_shown": overdue,
        "pending_by_pool": pools,
        "page_bytes": len(html),
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="10,000 matches, 5 requests")
    parser.add_argument("--keep", action="store_true", help="leave the bench rows in place")
    args = parser.parse_args(argv)
    if args.quick:
        args.matches, args.repeat = 10_000, 5
    setup_django(migrate=False)
    t0 = time.perf_counter()
    made = populate(args.matches)
    print(f"wrote {made['matches']:,} matches and {made['applied']:,} applied rows "
          f"in {time.perf_counter() - t0:.1f} s")  # fmt: skip
    try:
        result = {**made, **measure(args.repeat)}
    finally:
        if not args.keep:
            cleanup()
    print(f"/admin/operations/ on {result['vendor']} with {result['matches']:,} matches: "
          f"first visit {result['first_ms']} ms, warm median {result['warm_median_ms']} ms, "
          f"max {result['warm_max_ms']} ms over {args.repeat} requests; "
          f"{result['queries']} queries (target: under 1000 ms)")  # fmt: skip
    print(f"  per section (ms): {result['sections_ms']}")
    print(f"  overdue matches shown: {result['overdue_shown']}; pending by pool: "
          f"{result['pending_by_pool']}")  # fmt: skip
    write_json(ROOT / "var" / "bench" / "operations_page.json", result)
    return result


if __name__ == "__main__":
    main()
