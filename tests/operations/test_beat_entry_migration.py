"""The removed beat heartbeat: its stored schedule entry goes, the other entries stay."""

import importlib

import pytest
from django.apps import apps
from django.conf import settings
from django_celery_beat.models import IntervalSchedule, PeriodicTask, PeriodicTasks

pytestmark = pytest.mark.django_db

migration = importlib.import_module("operations.migrations.0002_remove_beat_heartbeat_entry")


def test_the_stored_heartbeat_entry_is_deleted_and_beat_told():
    every = IntervalSchedule.objects.create(every=30, period=IntervalSchedule.SECONDS)
    PeriodicTask.objects.create(name="worker-heartbeat", task="games.tasks.heartbeat",
                                interval=every)  # fmt: skip
    PeriodicTask.objects.create(name="sweep-pools", task="ratings.tasks.sweep_pools",
                                interval=every)  # fmt: skip
    PeriodicTasks.objects.all().delete()
    migration.remove_beat_heartbeat_entry(apps, None)
    assert list(PeriodicTask.objects.values_list("task", flat=True)) == [
        "ratings.tasks.sweep_pools"
    ]
    assert PeriodicTasks.objects.filter(ident=1).exists()  # a running beat reloads


def test_nothing_in_the_schedule_names_the_removed_task():
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert migration.REMOVED_TASK not in tasks
    from config.celery import app

    assert migration.REMOVED_TASK not in app.tasks
