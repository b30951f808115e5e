"""Bot-vs-bot throughput through the whole platform against the bare engine.

Plays the same random-bot matches twice: in-process through the engine alone,
and through the platform (a real Celery worker process, the broker and the
database from the environment: SQLite + folder broker by default, PostgreSQL +
Redis with DATABASE_URL / REDIS_URL). Prints decisions per second for both and
the ratio of platform time to engine time (target: at most 1.5).

    python -m benchmarks.stack [--game silkroad ...] [--matches 30] [--players 2 4]

Besides the ratio it prints the platform's own cost per match and per decision
(platform time minus engine time): for games whose random-bot decisions take
~20 µs, a fixed cost of a few milliseconds per match (a task, a transaction)
is already most of the ratio.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import NamedTuple

from benchmarks.common import db_and_broker, setup_django, write_json


def _setup_django() -> None:
    # As in production (the worker inherits it): the dev settings' DEBUG keeps a log of
    # every query, which a worker does not.
    os.environ.setdefault("DEBUG", "false")
    setup_django()


def engine_only(game: str, players: int, seeds: list[int]) -> tuple[float, int, float]:
    """Seconds, decisions and CPU seconds to play the matches with the same bots, engine only: what
    the worker's engine work is (one bot per seat seeded as the runner seeds it, one
    `legal_actions` per decision, the trusted apply, the outcome at the end), without
    anything else. Timed from the new games, as the worker meets them: the platform makes
    them when it starts the matches, before its timed window (Silk Road's `new_game`, its
    options checked against their schema, is ~1 ms, a quarter of a 2-player game)."""
    from games.engines.registry import get_engine
    from games.services.runner import seat_bot_seed

    engine = get_engine(game)
    apply = getattr(engine, "apply_unchecked", engine.apply)
    options = engine.default_options()
    new_games = [engine.new_game(players=players, seed=seed, options=options) for seed in seeds]
    plies = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for seed, state in zip(seeds, new_games, strict=True):
        ply, bots, first_bot_ply = 0, {}, None
        while not engine.is_over(state):
            seat = engine.to_act(state)
            legal = engine.legal_actions(state)
            if len(legal) == 1:
                action = legal[0]
            else:
                if first_bot_ply is None:
                    first_bot_ply = ply
                bot = bots.get(seat)
                if bot is None:
                    bot = bots[seat] = engine.make_bot(
                        "random", seed=seat_bot_seed(seed, first_bot_ply, seat)
                    )
                action = bot.choose_among(legal)
            state = apply(state, action)
            ply += 1
        engine.outcome(state)
        plies += ply
    return time.perf_counter() - t0, plies, time.process_time() - c0


class PlatformWorker:
    """One real Celery worker process (solo pool) on the configured database and broker,
    booted and warmed up once, then timed on bursts of matches (`burst`).

    One worker per row, not one per burst: each burst sits between engine runs made just
    before and just after it, a second or so apart, where a worker booted for every
    burst put 2-3 s of boot between the reference and what it is compared with (this
    machine's speed drifts by tens of percent within seconds)."""

    def __init__(self, game: str, players: int, *, spread: int = 1) -> None:
        self.game, self.players, self.spread = game, players, spread

    def __enter__(self) -> PlatformWorker:
        from django.test import override_settings

        from config.worker_process import celery_worker

        with contextlib.ExitStack() as stack:
            # One solo worker, one pool process: BOT_TASK_SPREAD 1 is the setting for that
            # (the default, two, would queue a second task behind the first).
            stack.enter_context(override_settings(BOT_TASK_SPREAD=self.spread))
            self.proc = stack.enter_context(
                celery_worker(
                    settings_module=os.environ["DJANGO_SETTINGS_MODULE"],
                    extra_env={"BOT_TASK_SPREAD": str(self.spread)},
                )
            )
            self.finishes = stack.enter_context(finish_waiter())
            # A first burst, not timed: a worker's first tasks import what it lazily needs
            # and build its first queries (10-15 ms once), as a long-running worker has done.
            self.burst(start_held(self.game, self.players, WARM_UP_SEEDS))
            self._stack = stack.pop_all()
        return self

    def __exit__(self, *exc) -> None:
        self._stack.__exit__(*exc)

    def burst(self, held: Held, *, quiet_s: float = 0.0) -> dict:
        """Send the started matches' held bot turns (as the commit that starts them does)
        and wait until this process learns that every match's finish has committed
        (`finish_waiter`; where it polls, asleep for `quiet_s` first): wall seconds,
        decisions and the worker's CPU seconds in between, and the seconds the start took.
        So the publish, the broker hand-over, loading and the last write count. The CPU
        time is read from /proc: unlike wall time, a busy machine hardly inflates it."""
        from games.models import Match
        from games.services import dispatch

        cpu0 = _cpu_s(self.proc.pid)
        sent = time.perf_counter()
        dispatch.send_bot_turns(held.turns)
        self.finishes.wait(held.ids, quiet_s=quiet_s)
        seconds = time.perf_counter() - sent
        cpu = _cpu_s(self.proc.pid) - cpu0
        plies = sum(Match.objects.filter(pk__in=held.ids).values_list("ply", flat=True))
        return {"seconds": seconds, "plies": plies, "worker_cpu_s": cpu, "start_s": held.start_s}


class Held(NamedTuple):
    """Started matches whose bot turns were held back at their start's commit."""

    ids: list[int]
    turns: list[tuple[int, int]]  # what the commit would have sent
    start_s: float  # starting them (a web request's work), the publish excepted


def start_held(game: str, players: int, seeds: list[int]) -> Held:
    """Matches of random bots created and started here, their bot turns held back instead
    of sent at the commit, for `PlatformWorker.burst` to send when its clock starts."""
    from unittest import mock

    from django.db import transaction

    from games import services
    from games.services import dispatch

    bot = services.builtin_bot_player(bot_name="random")
    ids = [
        services.create_match(game=game, players=[bot] * players, seed=seed, start=False).pk
        for seed in seeds
    ]
    turns: list[tuple[int, int]] = []
    t0 = time.perf_counter()
    with mock.patch.object(dispatch, "send_bot_turns", turns.extend), transaction.atomic():
        for pk in ids:
            services.start_match(match_id=pk)
    return Held(ids, turns, time.perf_counter() - t0)


def through_platform(game: str, players: int, seeds: list[int], *, spread: int = 1) -> dict:
    """The matches played by a fresh, warmed-up worker: `PlatformWorker.burst`'s figures."""
    with PlatformWorker(game, players, spread=spread) as worker:
        return worker.burst(start_held(game, players, seeds))


WARM_UP_SEEDS = [-4, -3, -2, -1]  # other matches than the timed ones
ENGINE_RUNS = 3  # before each burst, and as many after


@contextlib.contextmanager
def finish_waiter():
    """What `PlatformWorker.burst` waits on until its matches are finished: on PostgreSQL
    a notice per match as its finish commits (`FinishNotices`), elsewhere polls."""
    from django.db import connection

    if connection.vendor != "postgresql":
        yield FinishPolls()
        return
    with FinishNotices() as notices:
        yield notices


class FinishPolls:
    def wait(self, ids: list[int], *, quiet_s: float = 0.0, timeout: float = 600) -> None:
        """Until every match is finished: asleep for `quiet_s` (no longer than the work
        takes), then a small query every POLL_S."""
        from games.models import Match, MatchStatus

        time.sleep(quiet_s)
        unfinished = Match.objects.filter(pk__in=ids).exclude(status=MatchStatus.FINISHED)
        start = time.perf_counter()
        while unfinished.exists():
            if time.perf_counter() - start > timeout:
                raise TimeoutError(f"the benchmark matches did not finish in {timeout} s")
            time.sleep(POLL_S)


POLL_S = 0.0005


class FinishNotices:
    """PostgreSQL: a trigger of the benchmark's own notifies a channel as each match's
    finish is written, delivered when it commits, and `wait` sleeps on a listening
    connection until every match's notice has come.

    Polling at 2 kHz did the same at a cost: on this 2-core machine the polls (this
    process and its server process, ~5 ms of CPU a Yspahan burst) ran beside the worker
    and its server process, and the worker's bursts took 3-4 % longer (interleaved A/B).
    The trigger runs in the worker's statement, so its small cost counts on the
    platform's side. Installed on entry, dropped on exit."""

    def __enter__(self) -> FinishNotices:
        import psycopg
        from django.db import connection

        from games.models import Match, MatchStatus

        table = connection.ops.quote_name(Match._meta.db_table)
        self._name = f"bench_finished_{os.getpid()}"  # the function, trigger and channel
        with connection.cursor() as cursor:
            cursor.execute(
                f"CREATE OR REPLACE FUNCTION {self._name}() RETURNS trigger AS $$ BEGIN "
                f"PERFORM pg_notify('{self._name}', NEW.id::text); RETURN NULL; END $$ "
                "LANGUAGE plpgsql"
            )
            cursor.execute(f"DROP TRIGGER IF EXISTS {self._name} ON {table}")
            cursor.execute(
                f"CREATE TRIGGER {self._name} AFTER UPDATE OF status ON {table} FOR EACH ROW "
                f"WHEN (NEW.status = '{MatchStatus.FINISHED}' AND OLD.status <> NEW.status) "
                f"EXECUTE FUNCTION {self._name}()"
            )
        self._table = table
        self.listener = psycopg.connect(**connection.get_connection_params(), autocommit=True)
        self.listener.execute(f"LISTEN {self._name}")
        return self

    def wait(self, ids: list[int], *, quiet_s: float = 0.0, timeout: float = 600) -> None:
        del quiet_s  # asleep all along
        waiting = {str(pk) for pk in ids}
        deadline = time.monotonic() + timeout
        while waiting:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the benchmark matches did not finish in {timeout} s")
            for note in self.listener.notifies(timeout=left):
                waiting.discard(note.payload)  # other matches' notices (a warm-up's) too
                if not waiting:
                    break

    def __exit__(self, *exc) -> None:
        from django.db import connection

        self.listener.close()
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TRIGGER IF EXISTS {self._name} ON {self._table}")
            cursor.execute(f"DROP FUNCTION IF EXISTS {self._name}()")


def _cpu_s(pid: int) -> float:
    """CPU seconds a process used so far, all its threads: the worker's own work, which
    a busy machine delays but does not inflate as it inflates wall time. Read from the
    scheduler's nanosecond run times, since /proc/<pid>/stat counts 10 ms ticks and a
    short burst can round to none."""
    total_ns = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):  # a thread ended
            total_ns += int((task / "schedstat").read_text().split()[0])
    return total_ns / 1e9


def _category(filename: str) -> str:
    if "/games/engines/" in filename:
        return "engine (rules, bots)"
    if any(k in filename for k in ("/psycopg", "/django/db/", "sqlite3")):
        return "database (driver, ORM, SQL)"
    if any(k in filename for k in ("/redis/", "/kombu/", "/celery/", "/django/core/cache")):
        return "broker and cache"
    if "/games/services/" in filename:
        return "runner and services"
    if filename.startswith("~") or "{" in filename:
        return "builtins (json, time, random)"
    return "other (Django, stdlib)"


def profile_platform(game: str, players: int, seeds: list[int], top: int = 12) -> dict:
    """The worker's code for the same matches, in this process under cProfile: where
    the platform's time goes (the broker hand-over between tasks is not in it)."""
    import cProfile
    import pstats

    from config.celery import app
    from games import services

    bot = services.builtin_bot_player(bot_name="random")
    ids = []
    for seed in seeds:
        match = services.create_match(game=game, players=[bot] * players, seed=seed, start=False)
        services.start_match(match_id=match.pk)
        ids.append(match.pk)
    app.control.purge()  # the tasks start_match queued: played here instead
    from games.models import Match
    from games.services.dispatch import chunks

    turns = list(Match.objects.filter(pk__in=ids).values_list("pk", "ply"))
    profiler = cProfile.Profile()
    t0 = time.perf_counter()
    profiler.enable()
    for chunk in chunks(turns, spread=1):  # as the dispatcher splits them for one process
        while chunk:
            chunk = services.play_bot_turns(chunk)
    profiler.disable()
    wall = time.perf_counter() - t0
    stats = pstats.Stats(profiler)
    total = sum(v[2] for v in stats.stats.values())
    groups: dict[str, float] = {}
    rows = []
    for (filename, line, name), (_cc, calls, tottime, _ct, _callers) in stats.stats.items():
        groups[_category(filename)] = groups.get(_category(filename), 0.0) + tottime
        rows.append((tottime, calls, f"{filename.rsplit('/', 2)[-1]}:{line}({name})"))
    rows.sort(reverse=True)
    return {
        "wall_s": wall,
        "profiled_s": total,
        "groups": sorted(((k, v / total) for k, v in groups.items()), key=lambda kv: -kv[1]),
        "top": [(t / total, calls, where) for t, calls, where in rows[:top]],
    }


def print_profile(game: str, players: int, prof: dict) -> None:
    print(f"  cProfile of the worker's code, {game} {players} players "
          f"({prof['profiled_s'] * 1000:.0f} ms profiled):")  # fmt: skip
    print("    " + ", ".join(f"{k} {share:.0%}" for k, share in prof["groups"]))
    for share, calls, where in prof["top"]:
        print(f"    {share:6.1%} {calls:>8} {where}")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", nargs="+", default=None, help="default: every registered game")
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--profile", action="store_true",
                        help="also profile the worker's code in this process, per game and count")  # fmt: skip
    parser.add_argument("--repeat", type=int, default=1,
                        help="measure each row this often and report the run of median ratio")  # fmt: skip
    args = parser.parse_args(argv)
    _setup_django()
    from django.conf import settings

    from games.engines.registry import ENGINES

    backend = db_and_broker()
    print(f"stack benchmark: random bots, {args.matches} matches each, on {backend}, "
          "one solo worker process (BOT_TASK_SPREAD=1), PYTHONHASHSEED="
          f"{os.environ.get('PYTHONHASHSEED', 'random')} on both sides")  # fmt: skip
    print(f"{'game':>10} {'players':>7} {'engine ms/match':>15} {'platform ms/match':>17} "
          f"{'ratio':>6} {'goal':>5} {'extra ms/match':>14} {'extra µs/dec':>12} "
          f"{'dec/match':>9} {'start ms':>8} {'CPU ms/match engine/worker':>26} {'CPU ratio':>9}")  # fmt: skip
    results = []
    for game, n in [(g, n) for g in args.game or sorted(ENGINES) for n in args.players]:
        seeds = list(range(1000 + n * 100, 1000 + n * 100 + args.matches))
        runs = []
        with PlatformWorker(game, n) as worker:
            for _ in range(max(1, args.repeat)):
                held = start_held(game, n, seeds)
                warm_up = start_held(game, n, WARM_UP_SEEDS)
                # The engine alone just before and just after the burst, the median of
                # those runs the reference: this machine's speed drifts by tens of percent
                # within seconds, and a single slow engine run flattered the platform.
                before = [engine_only(game, n, seeds) for _ in range(ENGINE_RUNS)]
                # A few other matches first, so that the worker meets the burst busy, as a
                # worker under load does, rather than woken after a second asleep.
                worker.burst(warm_up)
                # Where the wait polls (not PostgreSQL), only once the engine's own time is
                # over: the platform plays the same games and more.
                platform = worker.burst(held, quiet_s=min(r[0] for r in before))
                around = before + [engine_only(game, n, seeds) for _ in range(ENGINE_RUNS)]
                e_time, e_cpu = (
                    statistics.median(r[0] for r in around),
                    statistics.median(r[2] for r in around),
                )
                runs.append((e_time, before[0][1], platform, e_cpu))
        runs.sort(key=lambda r: r[2]["seconds"] / r[0])
        e_time, e_plies, platform, e_cpu = runs[len(runs) // 2]  # the median run, not the best
        ratios = [round(r[2]["seconds"] / r[0], 2) for r in runs]
        p_time, p_plies = platform["seconds"], platform["plies"]
        extra = p_time - e_time
        row = {
            "game": game, "players": n, "engine_s": e_time, "platform_s": p_time,
            "engine_ms_per_match": e_time * 1000 / len(seeds),
            "platform_ms_per_match": p_time * 1000 / len(seeds),
            "engine_decisions_per_s": e_plies / e_time,
            "platform_decisions_per_s": p_plies / p_time,
            "ratio": p_time / e_time, "decisions": p_plies, "same_games": p_plies == e_plies,
            "extra_ms_per_match": extra * 1000 / len(seeds),
            "extra_us_per_decision": extra * 1e6 / max(p_plies, 1),
            "start_ms_per_match": platform["start_s"] * 1000 / len(seeds),
            "worker_cpu_ms_per_match": platform["worker_cpu_s"] * 1000 / len(seeds),
            "engine_cpu_ms_per_match": e_cpu * 1000 / len(seeds),
            "cpu_ratio": platform["worker_cpu_s"] / e_cpu, "ratios_of_runs": ratios,
        }  # fmt: skip
        results.append(row)
        print(f"{game:>10} {n:>7} {row['engine_ms_per_match']:>15.2f} "
              f"{row['platform_ms_per_match']:>17.2f} {row['ratio']:>6.2f} {1.5:>5.1f} "
              f"{row['extra_ms_per_match']:>14.2f} {row['extra_us_per_decision']:>12.1f} "
              f"{p_plies / len(seeds):>9.0f} {row['start_ms_per_match']:>8.1f} "
              f"{row['engine_cpu_ms_per_match']:>12.2f} / {row['worker_cpu_ms_per_match']:>11.2f} "
              f"{row['cpu_ratio']:>9.2f}"
              + ("" if row["same_games"] else "  (not the same games!)")
              + (f"  runs: {ratios}" if len(ratios) > 1 else ""))  # fmt: skip
        if args.profile:
            row["profile"] = profile_platform(game, n, seeds)
            print_profile(game, n, row["profile"])
    out = {"backend": backend, "results": results}
    write_json(settings.VAR_DIR / "bench" / "stack.json", out)
    return out


def share_hash_seed() -> None:
    """Run this command again under a PYTHONHASHSEED drawn now, unless it has one: the
    worker inherits it, so the engine reference and the worker hash strings alike.

    With a seed of its own per process, the same engine loop ran up to 17 % slower in
    some processes than in others (Yspahan 2, 8 processes, medians 32.5-39.1 ms; 32.4-
    34.2 ms under one seed): a row then measured the draw of two seeds."""
    if not os.environ.get("PYTHONHASHSEED"):
        seed = str(random.SystemRandom().randrange(1, 2**32))
        env = {**os.environ, "PYTHONHASHSEED": seed}
        os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], env)


if __name__ == "__main__":
    share_hash_seed()
    main()
