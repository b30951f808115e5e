"""Logging filters named in settings.LOGGING."""

from __future__ import annotations

import logging


def _demote(record: logging.LogRecord) -> bool:
    """Turn an INFO record into a DEBUG one; keep it only where DEBUG is enabled."""
    record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
    return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


class RoutineBeatLinesAtDebug(logging.Filter):
    """Beat logs "Scheduler: Sending due task ..." at INFO for every periodic task, a
    line every 2 s with the match sweep; those become DEBUG records (shown only when
    celery.beat logs at DEBUG), every other beat line keeps its level."""

    PREFIX = "Scheduler: Sending due task"

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.INFO and str(record.msg).startswith(self.PREFIX):
            return _demote(record)
        return True


class RoutineTaskLinesAtDebug(logging.Filter):
    """The worker's "Task ... received" / "succeeded" lines for the periodic sweeps
    (`tasks`: their names) at DEBUG; lines of every other task, and failures, unchanged."""

    def __init__(self, tasks: list[str] | tuple[str, ...] = ()):
        super().__init__()
        self.tasks = frozenset(tasks)

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if (
            record.levelno == logging.INFO
            and isinstance(args, dict)
            and args.get("name") in self.tasks
        ):
            return _demote(record)
        return True
