"""Celery tasks of the games app. Thin: they take ids and call services.

Every task is idempotent, keyed by (match, ply): a redelivered or duplicate
task finds the ply moved on and does nothing.
"""

from celery import shared_task
from django.utils import timezone

from games import services
from games.services import dispatch


@shared_task(name="games.tasks.ping")
def ping(value: int) -> dict:
    """A round trip through the broker: proves a worker took and ran a task."""
    return {"pong": value * 2, "at": timezone.now().isoformat()}


@shared_task(name="games.tasks.play_bot_matches", ignore_result=True)
def play_bot_matches(turns: list[list[int]]) -> None:
    """Bot turns of several matches, [[match id, ply], ...]: what is left after the
    task's time budget goes to fresh tasks."""
    rest = services.play_bot_turns([(match_id, ply) for match_id, ply in turns])
    dispatch.send_bot_turns(rest)


@shared_task(name="games.tasks.enforce_deadline", ignore_result=True)
def enforce_deadline(match_id: int, ply: int) -> None:
    services.time_out(match_id=match_id, ply=ply)


@shared_task(name="games.tasks.sweep_matches", ignore_result=True)
def sweep_matches() -> None:
    """Periodic safety net: apply overdue time-outs, restart stalled bot turns."""
    late, stalled = services.overdue_matches()
    for match_id, ply in late:
        services.time_out(match_id=match_id, ply=ply)
    dispatch.send_bot_turns(stalled)
    # Sent again: not "stalled" for another MATCH_STALLED_S, so that a turn waiting in a
    # busy queue is not sent once more every sweep.
    services.mark_resent(stalled)


@shared_task(name="games.tasks.expire_invitations", ignore_result=True)
def expire_invitations() -> None:
    """Periodic: close invitations past their time and cancel the matches waiting on them,
    and the waiting matches whose open seats nobody took in time."""
    services.expire_invitations()
    services.expire_open_matches()
