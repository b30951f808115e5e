"""Worker-side recording for the operations page and /health/, through Celery's signals.

- Heartbeat: once a worker is ready, a daemon thread of its main process upserts a
  `WorkerHeartbeat` row every `HEARTBEAT_S` seconds (and marks it stopped on a clean
  shutdown). A thread rather than the worker's timer: the timer shares the event loop
  with the solo pool, so a long bot task would silence it and the worker would look
  lost. It only needs the database, so it works the same on either broker.
- Failures: `task_failure` counts a failure per (task, key); `task_success` of the same
  (task, key) deletes the record.
"""

from __future__ import annotations

import logging
import os
import threading
import time

from celery.signals import task_failure, task_success, worker_ready, worker_shutdown

logger = logging.getLogger("operations")

HEARTBEAT_S = 15.0
PRUNE_AFTER_DAYS = 7
KEY_MAX = 100
ERROR_MAX = 2000
# How often a worker process re-reads which (task, key) pairs are recorded as failing.
# A success only costs a query when its pair is known to be failing: the bot tasks run
# by the thousand and must not each pay a DELETE.
KNOWN_FAILURES_REFRESH_S = 10.0


class _Heartbeat:
    def __init__(self, hostname: str) -> None:
        self.hostname, self.pid = hostname, os.getpid()
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self.run, name="ops-heartbeat", daemon=True)
        self.started_at = None

    def run(self) -> None:
        from django.db import connection
        from django.utils import timezone

        from operations.models import WorkerHeartbeat

        self.started_at = timezone.now()
        first = True
        while True:
            try:
                if first:
                    cutoff = timezone.now() - timezone.timedelta(days=PRUNE_AFTER_DAYS)
                    WorkerHeartbeat.objects.filter(last_seen__lt=cutoff).delete()
                    first = False
                self.beat()
            except Exception:  # the database may be away for a while: try again later
                logger.warning("worker heartbeat not written", exc_info=True)
            finally:
                connection.close()  # hand the connection back between beats
            if self.stop_event.wait(HEARTBEAT_S):
                return

    def beat(self, *, stopped: bool = False) -> None:
        from celery.worker import state
        from django.utils import timezone

        from operations.models import WorkerHeartbeat

        now = timezone.now()
        WorkerHeartbeat.objects.update_or_create(
            hostname=self.hostname, pid=self.pid,
            defaults={"last_seen": now, "tasks": state.all_total_count[0],
                      "stopped_at": now if stopped else None},
            create_defaults={"started_at": self.started_at or now, "last_seen": now,
                             "tasks": state.all_total_count[0],
                             "stopped_at": now if stopped else None},
        )  # fmt: skip

    def stop(self) -> None:
        from django.db import connection

        self.stop_event.set()
        self.thread.join(timeout=2)  # a stop must stay quick (make run allows 6 s)
        try:
            self.beat(stopped=True)
        except Exception:
            logger.warning("worker stop not recorded", exc_info=True)
        finally:
            connection.close()


_heartbeat: _Heartbeat | None = None


@worker_ready.connect
def _start_heartbeat(sender=None, **kwargs) -> None:
    global _heartbeat
    hostname = getattr(sender, "hostname", None) or "celery"
    _heartbeat = _Heartbeat(hostname)
    _heartbeat.thread.start()


@worker_shutdown.connect
def _stop_heartbeat(**kwargs) -> None:
    global _heartbeat
    if _heartbeat is not None:
        _heartbeat.stop()
        _heartbeat = None


def task_key(args) -> str:
    """A task's first argument names what it works on (a match, a pool); '' for none."""
    if not args:
        return ""
    return str(args[0])[:KEY_MAX]


class _KnownFailures:
    """The (task, key) pairs recorded as failing, as this process last read them."""

    def __init__(self) -> None:
        self.pairs: set[tuple[str, str]] = set()
        self.read_at = float("-inf")

    def __contains__(self, pair) -> bool:
        from operations.models import TaskFailure

        if time.monotonic() - self.read_at > KNOWN_FAILURES_REFRESH_S:
            self.pairs = set(TaskFailure.objects.values_list("task", "key"))
            self.read_at = time.monotonic()
        return pair in self.pairs


_known = _KnownFailures()


def _is_eager(task) -> bool:
    return bool(getattr(getattr(task, "request", None), "is_eager", False))


@task_failure.connect
def record_failure(sender=None, exception=None, args=None, **kwargs) -> None:
    if sender is None or _is_eager(sender):
        return  # run inline inside the caller's transaction: the caller sees the error
    from django.db import IntegrityError, transaction
    from django.db.models import F
    from django.utils import timezone

    from operations.models import TaskFailure

    now = timezone.now()
    name, key = sender.name, task_key(args if args is not None else sender.request.args)
    error = f"{type(exception).__name__}: {exception}"[:ERROR_MAX]
    rows = TaskFailure.objects.filter(task=name, key=key)
    try:
        if not rows.update(count=F("count") + 1, last_error=error, last_at=now):
            with transaction.atomic():
                TaskFailure.objects.create(task=name, key=key, last_error=error,
                                           first_at=now, last_at=now)  # fmt: skip
    except IntegrityError:  # another process recorded it first
        rows.update(count=F("count") + 1, last_error=error, last_at=now)
    _known.pairs.add((name, key))


@task_success.connect
def clear_failure(sender=None, **kwargs) -> None:
    if sender is None or _is_eager(sender):
        return
    pair = (sender.name, task_key(sender.request.args))
    if pair in _known:
        from operations.models import TaskFailure

        TaskFailure.objects.filter(task=pair[0], key=pair[1]).delete()
        _known.pairs.discard(pair)
