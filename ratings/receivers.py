"""ratings listens to games' match_finished (games never imports ratings)."""

from django.dispatch import receiver

from games.signals import match_finished


@receiver(match_finished, dispatch_uid="ratings.match_finished")
def on_match_finished(sender, match_ids: list[int], rated_ids: list[int], **kwargs) -> None:
    from ratings import tasks

    if rated_ids:  # unrated matches never touch a pool: spare the task
        tasks.matches_finished.delay(list(rated_ids))
