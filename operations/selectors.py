"""What the operations page shows. Reads only; every query is bounded or indexed so the
page stays fast with a long match history (see benchmarks/operations_page.py)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Exists, F, Min, OuterRef
from django.utils import timezone

from config.celery import app as celery_app
from config.settings.components import broker_kind
from games.models import Match, MatchStatus, PlayerKind
from operations.models import TaskFailure, WorkerHeartbeat

LIVE_WITHIN = timedelta(seconds=60)
WORKERS_SHOWN_FOR = timedelta(days=1)
# The sweep applies a passed deadline within ~3 s; a match still waiting after this
# long means no worker or no beat is doing it.
OVERDUE_GRACE = timedelta(seconds=30)
ROWS_SHOWN = 50
# Tasks about one match, by the name the failure record carries: the key is its id.
MATCH_TASKS = {"games.tasks.enforce_deadline"}


@dataclass
class Worker:
    row: WorkerHeartbeat
    state: str  # "live", "stopped" (clean shutdown) or "lost" (no heartbeat for a minute)


def workers(now: datetime | None = None) -> list[Worker]:
    """The workers heard of in the last day, the latest heartbeat first: the operations
    page's list and what /health/ reads (core/health.py), so both call a worker live alike."""
    now = now or timezone.now()
    rows = WorkerHeartbeat.objects.filter(last_seen__gte=now - WORKERS_SHOWN_FOR)[:ROWS_SHOWN]
    result = []
    for row in rows:
        if row.stopped_at is not None:
            state = "stopped"
        elif row.last_seen >= now - LIVE_WITHIN:
            state = "live"
        else:
            state = "lost"
        result.append(Worker(row, state))
    return result


def last_heartbeat(seen: list[Worker]) -> datetime | None:
    """The latest heartbeat of a worker that has not stopped, of `workers()`' list."""
    return next((w.row.last_seen for w in seen if w.state != "stopped"), None)


@dataclass
class QueueReport:
    transport: str
    queues: list[tuple[str, int]] = field(default_factory=list)
    unacked: int | None = None  # taken by a worker, not yet acknowledged (Redis only)
    error: str = ""

    @property
    def total(self) -> int:
        return sum(n for _, n in self.queues)


def queue_names() -> list[str]:
    names = [celery_app.conf.task_default_queue]
    for queue in celery_app.conf.task_queues or ():
        if queue.name not in names:
            names.append(queue.name)
    return names


def queue_lengths() -> QueueReport:
    kind = broker_kind(celery_app.conf.broker_url)
    report = QueueReport(transport=kind)
    try:
        if kind.startswith("redis"):
            _redis_lengths(report)
        else:
            _folder_lengths(report)
    except Exception as exc:  # broker away: the page still shows everything else
        report.error = f"{type(exc).__name__}: {exc}"
    return report


def _redis_lengths(report: QueueReport) -> None:
    import redis
    from kombu.transport.redis import PRIORITY_STEPS

    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1)
    try:
        options = celery_app.conf.broker_transport_options or {}
        steps = options.get("priority_steps", PRIORITY_STEPS)
        sep = options.get("sep", "\x06\x16")
        with client.pipeline(transaction=False) as pipe:
            names = queue_names()
            for name in names:
                # kombu keeps one list per priority step: 'q' and 'q<sep><step>'.
                for step in steps:
                    pipe.llen(f"{name}{sep}{step}" if step else name)
            pipe.hlen(options.get("unacked_key", "unacked"))
            counts = pipe.execute()
        per_queue = len(steps)
        for i, name in enumerate(names):
            report.queues.append((name, sum(counts[i * per_queue : (i + 1) * per_queue])))
        report.unacked = counts[-1]
    finally:
        client.close()


def _folder_lengths(report: QueueReport) -> None:
    folder = (celery_app.conf.broker_transport_options or {}).get("data_folder_in")
    names = queue_names()
    counts = dict.fromkeys(names, 0)
    with os.scandir(folder) as entries:
        for entry in entries:
            # Message files are '<stamp>_<uuid>.<queue>.msg'; '.part' ones are being written.
            if entry.name.endswith(".msg"):
                queue = entry.name[:-4].split(".", 1)[-1]
                if queue in counts:
                    counts[queue] += 1
    report.queues = list(counts.items())


# A bot turn the sweep should have restarted after MATCH_STALLED_S: still waiting after
# this long means nobody runs the sweep or the bot task keeps failing.
STALLED_AFTER = timedelta(minutes=2)


@dataclass
class Overdue:
    count: int
    matches: list[Match]
    stalled_count: int = 0
    stalled: list[Match] = field(default_factory=list)


def overdue_matches(now: datetime | None = None) -> Overdue:
    """Running matches whose decision deadline passed more than `OVERDUE_GRACE` ago."""
    now = now or timezone.now()
    late = Match.objects.filter(status=MatchStatus.RUNNING, deadline__lt=now - OVERDUE_GRACE)
    rows = list(
        late.order_by("deadline").only("id", "game", "ply", "to_act", "deadline")[:ROWS_SHOWN]
    )
    count = len(rows) if len(rows) < ROWS_SHOWN else late.count()
    # Bot turns have no deadline: the last write tells how long the turn has waited.
    bot_turns = Match.objects.filter(
        status=MatchStatus.RUNNING,
        updated_at__lt=now - STALLED_AFTER,
        seats__index=F("to_act"),
        seats__player__kind=PlayerKind.ENGINE_BOT,
    )
    stalled = list(
        bot_turns.order_by("updated_at").only("id", "game", "ply", "to_act", "updated_at")[
            :ROWS_SHOWN
        ]
    )
    stalled_count = len(stalled) if len(stalled) < ROWS_SHOWN else bot_turns.count()
    return Overdue(count, rows, stalled_count, stalled)


def failures() -> list[TaskFailure]:
    return list(TaskFailure.objects.all()[:ROWS_SHOWN])


@dataclass
class PendingPool:
    pool: object
    pending: int
    oldest: datetime | None


def pending_pools() -> list[PendingPool]:
    """Rating pools with finished rated matches not applied yet (normally applied
    within seconds of the end; the sweep catches up every 30 s)."""
    from ratings.models import AppliedMatch, RatingPool

    result = []
    for pool in RatingPool.objects.select_related("variant"):
        # The same set as ratings.services.pending_matches, as an anti-join.
        matches = Match.objects.filter(
            game=pool.game, rated=True, status=MatchStatus.FINISHED
        ).filter(~Exists(AppliedMatch.objects.filter(pool=pool, match_id=OuterRef("pk"))))
        if pool.variant_id:
            matches = matches.filter(variant_id=pool.variant_id)
        stats = matches.aggregate(n=Count("id"), oldest=Min("finished_at"))
        if stats["n"]:
            result.append(PendingPool(pool, stats["n"], stats["oldest"]))
    return result


def operations_report() -> dict:
    now = timezone.now()
    seen = workers(now)
    return {
        "now": now,
        "workers": seen,
        "live_count": sum(w.state == "live" for w in seen),
        "live_within_s": int(LIVE_WITHIN.total_seconds()),
        "queue": queue_lengths(),
        "overdue": overdue_matches(now),
        "grace_s": int(OVERDUE_GRACE.total_seconds()),
        "stalled_min": int(STALLED_AFTER.total_seconds() // 60),
        "failures": failures(),
        "match_tasks": MATCH_TASKS,
        "pools": pending_pools(),
        "mail": _mail_report(now),
    }


def _mail_report(now: datetime):
    from mail.selectors import mail_report  # the mail app's own reads

    return mail_report(now)
