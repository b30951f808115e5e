"""ratings listens to games' match_finished (games never imports ratings)."""

from django.dispatch import receiver

from games.signals import match_finished


@receiver(match_finished, dispatch_uid="ratings.match_finished")
def on_match_finished(sender, match_id: int, rated: bool = True, **kwargs) -> None:
    from ratings import tasks

    if rated:  # unrated matches never touch a pool: spare the task
        tasks.match_finished.delay(match_id)
