"""Celery tasks of the games app. Thin: they take ids and call services."""

from celery import shared_task
from django.core.cache import cache
from django.utils import timezone

HEARTBEAT_KEY = "worker:heartbeat"


@shared_task(name="games.tasks.ping")
def ping(value: int) -> dict:
    """A round trip through the broker: proves a worker took and ran a task."""
    return {"pong": value * 2, "at": timezone.now().isoformat()}


@shared_task(name="games.tasks.heartbeat", ignore_result=True)
def heartbeat() -> None:
    """Periodic: lets /health/ tell whether workers and beat are alive."""
    cache.set(HEARTBEAT_KEY, timezone.now().isoformat(), timeout=300)
