"""The Celery app: settings come from Django's CELERY_* settings."""

import os

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Celery's Django fix-up closes the database connection around every task
# unless told to reuse it; reconnecting to PostgreSQL cost ~8 ms a task, more
# than a whole bot-vs-bot match of random bots. Reuse it (the fix-up still
# recycles it every few thousand tasks) and handle it as Django does around
# a request: dropped when older than CONN_MAX_AGE, or unusable.
app.conf.CELERY_DB_REUSE_MAX = 2000


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(task=None, **kwargs) -> None:
    from django.db import connections

    if task is not None and getattr(task.request, "is_eager", False):
        return  # run inline by the caller, inside its connection and transaction
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close_if_unusable_or_obsolete()
