from celery import shared_task

from notifications import services


@shared_task(name="notifications.tasks.send_digests")
def send_digests() -> int:
    """Once a day (beat): one mail per person with the notices she takes "daily"."""
    return services.send_digests()


@shared_task(name="notifications.tasks.your_move_reminder", ignore_result=True)
def your_move_reminder(match_id: int, ply: int, user_id: int) -> bool:
    """Ten minutes after a slow match's turn came to her: "your move", unless she has moved
    or looked at the match meanwhile."""
    from notifications.game_notices import remind_your_move

    return remind_your_move(match_id, ply, user_id) is not None
