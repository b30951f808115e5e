"""The site's zone: Europe/Prague unless TIME_ZONE says otherwise; storage stays UTC, and
Celery (its beat schedules included) follows the same zone with aware times."""

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

ROOT = Path(__file__).resolve().parents[2]


def _settings_in_subprocess(**env_overrides) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "TIME_ZONE"}
    env.update(env_overrides, DJANGO_SETTINGS_MODULE="config.settings.dev")
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "from config.celery import app; "
        "print(s.TIME_ZONE, s.CELERY_TIMEZONE, app.timezone.key, s.USE_TZ)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_prague_by_default_and_the_environment_may_say_otherwise():
    assert _settings_in_subprocess() == ["Europe/Prague"] * 3 + ["True"]
    assert _settings_in_subprocess(TIME_ZONE="America/New_York") == ["America/New_York"] * 3 + [
        "True"
    ]


def test_celery_follows_the_site_zone():
    from config.celery import app

    assert settings.CELERY_TIMEZONE == settings.TIME_ZONE == app.timezone.key
    assert app.conf.enable_utc  # messages (eta, expires) still travel in UTC


@pytest.mark.django_db
def test_beat_interval_schedules_compare_aware_times():
    """django-celery-beat keeps last_run_at aware (UTC in the database); with the site in
    Prague an interval task is due exactly when its interval has passed."""
    from django_celery_beat.models import IntervalSchedule, PeriodicTask
    from django_celery_beat.schedulers import ModelEntry

    from config.celery import app

    every = IntervalSchedule.objects.create(every=10, period=IntervalSchedule.SECONDS)
    task = PeriodicTask.objects.create(
        name="probe", task="games.tasks.sweep_matches", interval=every
    )
    task.last_run_at = timezone.now() - timedelta(seconds=20)
    due, _next = ModelEntry(task, app=app).is_due()
    assert due
    task.last_run_at = timezone.now() - timedelta(seconds=2)
    due, next_in = ModelEntry(task, app=app).is_due()
    assert not due and 7 <= next_in <= 8.5
    task.save()
    task.refresh_from_db()
    assert timezone.is_aware(task.last_run_at)
    advanced = next(ModelEntry(task, app=app))  # what beat stores after sending it
    assert timezone.is_aware(advanced.last_run_at)
