"""The Celery app: settings come from Django's CELERY_* settings."""

import gc
import logging
import os
import re
import time

from celery import Celery, Task
from celery.signals import task_postrun, task_prerun, worker_process_init, worker_ready
from kombu.exceptions import OperationalError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

logger = logging.getLogger("config.celery")


class QueueingTolerantTask(Task):
    """A task whose queueing failure (broker unreachable) is logged, not raised.

    Tasks are queued after the database work is committed, and the periodic
    sweeps (stalled bot turns, overdue time-outs, tournaments, rating pools)
    find and redo whatever was not queued once the broker is back. So a web
    request that wrote its move should answer, not fail, while Redis is down."""

    _last_warning = 0.0

    def apply_async(self, args=None, kwargs=None, **options):
        if "argsrepr" not in options:
            text = plain_repr(
                args, self.app.amqp.argsrepr_maxsize, self.app.conf.task_repr_maxlevels
            )
            if text is not None:
                options["argsrepr"] = text
        try:
            return super().apply_async(args, kwargs, **options)
        except OperationalError as exc:
            now = time.monotonic()
            if now - QueueingTolerantTask._last_warning >= 60:
                QueueingTolerantTask._last_warning = now
                logger.warning("broker unreachable, %s not queued (the sweeps will redo it): %s",
                               self.name, exc)  # fmt: skip
            return None


# The text of ids and counts (ints, None, booleans) in lists and tuples, and nothing else:
# no quotes (strings), dots (floats), colons or braces (dicts, sets), other names.
# One character or word per step: a nested repeat ("[...]+" inside "*") backtracked
# exponentially over a plain prefix before a string or float (35 characters: ~1 min).
_PLAIN_TEXT = re.compile(r"(?:[0-9 ,()\[\]-]|None|True|False)*")
_BRACKETS_ONLY = str.maketrans("", "", "0123456789 ,-NoneTrueFalse")


def plain_repr(value, limit: int, levels: int) -> str | None:
    """The text Celery's saferepr makes of task arguments for logs and monitors, when they
    are ids and counts (ints, None, booleans, in lists and tuples nested at most `levels`
    deep) and it fits in `limit` characters: their repr, the same text. None otherwise
    (Celery makes it). saferepr walked 40 bot turns' pairs for ~0.35 ms, a tenth of
    publishing their task, paid in the request that starts the matches and before the
    worker can begin; repr and the checks of its text take a tenth of that."""
    text = repr(value)
    if len(text) > limit or not _PLAIN_TEXT.fullmatch(text):
        return None
    depth = deepest = 0
    for bracket in text.translate(_BRACKETS_ONLY):
        depth += 1 if bracket in "([" else -1
        deepest = max(deepest, depth)
    return text if deepest <= levels else None  # deeper, saferepr writes "..."


# No task is kept under an old name after a rename or removal: a message of that name
# still queued at an upgrade is refused by the worker (logged as unregistered), and the
# periodic sweeps redo its work (bot turns, tables' results, rating pools).
app = Celery("config", task_cls=QueueingTolerantTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Celery's Django fix-up closes the database connection around every task
# unless told to reuse it; reconnecting to PostgreSQL cost ~8 ms a task, more
# than a whole bot-vs-bot match of random bots. Reuse it (the fix-up still
# recycles it every few thousand tasks, and closes an inherited connection pool
# in each forked pool process) and handle it as Django does around a request:
# dropped when older than CONN_MAX_AGE, or unusable. With the PostgreSQL pool
# the connection is borrowed from the process's pool once and kept, as below.
app.conf.CELERY_DB_REUSE_MAX = 2000


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(task=None, **kwargs) -> None:
    from django.db import connections

    if task is not None and getattr(task.request, "is_eager", False):
        return  # run inline by the caller, inside its connection and transaction
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            if getattr(conn, "pool", None):
                # A pool process runs one task at a time: it keeps its pooled connection
                # between tasks (handing it back and borrowing it again cost a few ms a
                # task) and drops it only when broken, or when the fix-up recycles it.
                conn.close_at = None
            conn.close_if_unusable_or_obsolete()


# The garbage collector in a worker. Boot leaves a few hundred thousand long-lived objects
# (Django, Celery, the engines' tables); every full collection walked them all, ~100 ms,
# several times a minute under bot play, as long as a burst of matches takes. Frozen, they
# are never walked again. And a bot round keeps its log entries (a list and an action a
# decision) until it writes them, and frees them all by reference counting when written;
# a collection of the youngest objects meanwhile walked them all and found nothing to free
# (1.8-2.8 ms, 5% of a 40-match Yspahan burst, at a first threshold of 20,000). The
# threshold lies above a full task's entries (64 matches of a few hundred decisions).
WORKER_GC_THRESHOLDS = (100_000, 10, 10)


@worker_process_init.connect  # each pool process (prefork)
@worker_ready.connect  # the main process, where a solo or threads pool runs its tasks
def _freeze_boot_objects(**kwargs) -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*WORKER_GC_THRESHOLDS)
