"""Celery tasks of ratings: thin wrappers taking ids; applying is idempotent."""

from celery import shared_task

from ratings import services
from ratings.models import RatingPool


@shared_task(name="ratings.tasks.matches_finished", ignore_result=True)
def matches_finished(match_ids: list[int]) -> None:
    services.on_matches_finished(match_ids=match_ids)


@shared_task(name="ratings.tasks.sweep_pools", ignore_result=True)
def sweep_pools() -> None:
    """Safety net: apply matches whose task was lost."""
    for pool_id in RatingPool.objects.values_list("pk", flat=True):
        services.apply_pending(pool_id=pool_id)
