"""Celery tasks of tournaments: thin wrappers that take ids; all are idempotent."""

from celery import shared_task

from tournaments import selectors, services
from tournaments.services import scheduling


@shared_task(name="tournaments.tasks.matches_finished", ignore_result=True)
def matches_finished(match_ids: list[int]) -> None:
    """Tables whose matches ended together (a burst of bot tables): each takes its result."""
    for match_id in match_ids:
        services.on_match_finished(match_id=match_id)


@shared_task(name="tournaments.tasks.advance_tournament", ignore_result=True)
def advance_tournament(tournament_id: int) -> None:
    services.advance_tournament(tournament_id=tournament_id)


@shared_task(name="tournaments.tasks.sweep_tournaments", ignore_result=True)
def sweep_tournaments() -> None:
    """Planned starts that have come (tournaments.services.scheduling); and a safety net: results
    whose task was lost, and rounds finished but not advanced."""
    scheduling.start_due()
    for match_id in selectors.unrecorded_match_ids():
        services.on_match_finished(match_id=match_id)
    for tournament_id in selectors.stalled_tournament_ids():
        services.advance_tournament(tournament_id=tournament_id)
