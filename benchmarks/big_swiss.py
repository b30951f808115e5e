"""A bot Swiss through the real workers: time per round and where it goes.

Entrants are random bots; Silk Road, four-seat tables, Swiss. The tournament
advances by itself (auto_advance): the workers play the matches, apply each
table's result when its match ends, pair and start the next round. This process
only creates the event and watches the database. Per round it prints:

- **hand-over + pairing**: from the previous round's end to this round's start
  (the advance task, standings, pairing, Round/Table rows); the pairing alone is
  timed again in this process afterwards (`pairing CPU`);
- **match creation**: from the round's start to its last match created (one
  transaction in `start_round`, a match and its seats per table);
- **bot play**: from the round's last match created (`start_round` commits and
  the bot tasks go out) to the last match's end;
- **results**: from a match's end to its table's result (mean and max), and from
  the last match's end to the round's end (the last result applied);
- **round**: the round's start to its end, and matches per second.

    python -m benchmarks.big_swiss                       # 64 entrants, 3 rounds
    python -m benchmarks.big_swiss --entrants 1000 --rounds 7 --workers 2
    BIG_SWISS_ENTRANTS=1000 python -m benchmarks big_swiss

From the measured parts it projects the time per round with N worker
machines (see benchmarks/README.md for the model and its limits).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import statistics
import time

from benchmarks.common import db_and_broker, setup_django, write_json


def create_event(entrants: int, rounds: int, seed: int):
    from games import services as game_services
    from tournaments import services

    nonce = secrets.token_hex(4)
    players = [
        game_services.create_engine_bot(name=f"bswiss-{nonce}-{i}", bot_name="random")
        for i in range(entrants)
    ]
    t = services.create_tournament(
        name=f"big swiss {nonce}", game="silkroad", format="swiss",
        config={"table_size": 4, "rounds": rounds}, auto_advance=True, rated=False, seed=seed,
    )  # fmt: skip
    for p in players:
        services.add_entry(tournament=t, player=p)
    return t, players


def round_figures(tournament_id: int) -> list[dict]:
    """Per finished round, the phases from the rows' own timestamps (seconds)."""
    from tournaments.models import Round

    rows = []
    prev_end = None
    for rnd in Round.objects.filter(tournament_id=tournament_id).order_by("number"):
        if rnd.finished_at is None or rnd.started_at is None:
            break
        tables = list(rnd.tables.select_related("match"))
        matches = [t.match for t in tables if t.match is not None]
        if not matches:
            break
        created = max(m.created_at for m in matches)
        first_start = min(m.started_at for m in matches)
        last_end = max(m.finished_at for m in matches)
        lags = [(t.finished_at - t.match.finished_at).total_seconds() for t in tables if t.match]
        plies = sum(m.ply for m in matches)
        round_s = (rnd.finished_at - rnd.started_at).total_seconds()
        rows.append({
            "round": rnd.number, "tables": len(tables), "decisions": plies,
            "handover_pairing_s": None if prev_end is None else (rnd.started_at - prev_end).total_seconds(),
            "match_creation_s": (created - rnd.started_at).total_seconds(),
            # The tasks go out when start_round commits, after the last match is made.
            "bot_play_s": (last_end - max(created, first_start)).total_seconds(),
            "result_lag_mean_s": statistics.fmean(lags), "result_lag_max_s": max(lags),
            "last_result_s": (rnd.finished_at - last_end).total_seconds(),
            "round_s": round_s, "matches_per_s": len(matches) / round_s if round_s else 0.0,
            # a match's start to its end, including its wait in the queue
            "match_s_mean": statistics.fmean(
                (m.finished_at - m.started_at).total_seconds() for m in matches),
        })  # fmt: skip
        prev_end = rnd.finished_at
    return rows


def pairing_cpu(tournament_id: int) -> list[float]:
    """Each played round's pairing again, in this process: CPU seconds (no database)."""
    from tournaments import format_rows
    from tournaments.models import Tournament

    t = Tournament.objects.get(pk=tournament_id)
    fmt, people, played = (
        format_rows.format_for(t),
        format_rows.entrants(t),
        format_rows.played_rounds(t),
    )
    out = []
    for k in range(len(played)):
        t0 = time.process_time()
        fmt.next_round(people, played[:k], seed=t.seed * 1009 + k + 1)
        out.append(time.process_time() - t0)
    return out


def project(rows: list[dict], workers: int, machines: list[int], cores: int) -> list[dict]:
    """Time per round with N machines of `cores` worker processes each: the serial part
    (hand-over, pairing, match creation, the last result) stays; bot play, which
    `workers` processes shared here, divides over N * cores processes."""
    if not rows:
        return []
    serial = statistics.fmean(
        (r["handover_pairing_s"] or 0.0) + r["match_creation_s"] + r["last_result_s"] for r in rows
    )
    play_work = statistics.fmean(r["bot_play_s"] for r in rows) * workers  # process-seconds
    tables = rows[0]["tables"]
    out = []
    for n in machines:
        procs = n * cores
        # at most one process per table is useful
        t = serial + play_work / min(procs, max(tables, 1))
        out.append({"machines": n, "processes": procs, "round_s": t,
                    "matches_per_s": tables / t if t else 0.0})  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int,
                        default=int(os.environ.get("BIG_SWISS_ENTRANTS", "64")))  # fmt: skip
    parser.add_argument("--rounds", type=int,
                        default=int(os.environ.get("BIG_SWISS_ROUNDS", "3")))  # fmt: skip
    parser.add_argument("--workers", type=int, default=2, help="local worker processes")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--timeout", type=float, default=3600.0)
    parser.add_argument("--keep", action="store_true", help="keep the event and its bots")
    parser.add_argument("--quick", action="store_true", help="32 entrants, 2 rounds")
    args = parser.parse_args(argv)
    if args.quick:
        args.entrants, args.rounds = 32, 2
    setup_django()
    from django.conf import settings

    from config.worker_process import celery_worker, wait_for
    from tournaments import services
    from tournaments.models import Tournament, TournamentStatus

    backend = db_and_broker()
    print(f"big Swiss: {args.entrants} random bots, Silk Road 4-seat tables, {args.rounds} rounds, "
          f"{args.workers} local worker processes, on {backend}")  # fmt: skip
    t0 = time.perf_counter()
    t, players = create_event(args.entrants, args.rounds, args.seed)
    setup_s = time.perf_counter() - t0
    try:
        with contextlib.ExitStack() as stack:
            for _ in range(args.workers):
                stack.enter_context(
                    celery_worker(settings_module=os.environ["DJANGO_SETTINGS_MODULE"])
                )
            t1 = time.perf_counter()
            services.start_tournament(tournament=t)  # pairs and starts round 1 here
            start_s = time.perf_counter() - t1
            wait_for(
                lambda: Tournament.objects.get(pk=t.pk).status == TournamentStatus.FINISHED,
                timeout=args.timeout, what="the Swiss to finish", interval=0.5,
            )  # fmt: skip
            total_s = time.perf_counter() - t1
        rows = round_figures(t.pk)
        cpu = pairing_cpu(t.pk)
    finally:
        if not args.keep:
            _delete(t, players)
    print(f"  set-up (bots, entries) {setup_s:.1f} s; start (round 1 paired and its matches "
          f"created in this process) {start_s:.1f} s; whole event {total_s:.1f} s")  # fmt: skip
    print(f"{'round':>5} {'tables':>6} {'handover+pair s':>15} {'pairing CPU s':>13} "
          f"{'match creation s':>16} {'bot play s':>10} {'result lag mean/max s':>21} "
          f"{'last result s':>13} {'round s':>8} {'matches/s':>9} {'match s (queue incl.)':>21}")  # fmt: skip
    for r, c in zip(rows, cpu, strict=False):
        r["pairing_cpu_s"] = c
        hp = "-" if r["handover_pairing_s"] is None else f"{r['handover_pairing_s']:.2f}"
        print(f"{r['round']:>5} {r['tables']:>6} {hp:>15} {c:>13.3f} {r['match_creation_s']:>16.2f} "
              f"{r['bot_play_s']:>10.2f} {r['result_lag_mean_s']:>10.2f} / {r['result_lag_max_s']:<8.2f} "
              f"{r['last_result_s']:>13.2f} {r['round_s']:>8.2f} {r['matches_per_s']:>9.1f} "
              f"{r['match_s_mean']:>21.1f}")  # fmt: skip
    projection = project(rows, args.workers, [1, 2, 4, 8, 16], cores=2)
    if projection:
        print("  projected, machines of 2 worker processes (docker compose --scale worker=N, "
              "WORKER_CONCURRENCY=2), one database:")  # fmt: skip
        for p in projection:
            print(f"    N={p['machines']:>2}: {p['round_s']:7.1f} s a round, "
                  f"{p['matches_per_s']:6.1f} matches/s, 7 rounds {7 * p['round_s'] / 60:5.1f} min")  # fmt: skip
    out = {"backend": backend, "entrants": args.entrants, "rounds": args.rounds,
           "workers": args.workers, "setup_s": setup_s, "start_s": start_s, "total_s": total_s,
           "per_round": rows, "projection": projection}  # fmt: skip
    write_json(settings.VAR_DIR / "bench" / f"big_swiss-{args.entrants}.json", out)
    return out


def _delete(t, players) -> None:
    from games.models import Match, Player
    from tournaments.models import Table

    match_ids = list(Table.objects.filter(round__tournament=t).values_list("match_id", flat=True))
    t.delete()
    Match.objects.filter(pk__in=[m for m in match_ids if m]).delete()
    Player.objects.filter(pk__in=[p.pk for p in players]).delete()


if __name__ == "__main__":
    main()
