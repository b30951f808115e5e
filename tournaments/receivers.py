"""tournaments listens to games' match_finished (games never imports tournaments)."""

from django.dispatch import receiver

from games.signals import match_finished


@receiver(match_finished, dispatch_uid="tournaments.match_finished")
def on_match_finished(sender, match_id: int, **kwargs) -> None:
    from tournaments import tasks
    from tournaments.models import Table

    # One indexed lookup here spares a task for every match outside tournaments.
    if Table.objects.filter(match_id=match_id).exists():
        tasks.match_finished.delay(match_id)
