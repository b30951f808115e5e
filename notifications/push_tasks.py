"""The push task (notifications/push.py): thin, takes a notice's id. Registered with the
worker by notifications/apps.py (Celery's autodiscovery imports tasks.py only)."""

from celery import shared_task

from notifications import push


@shared_task(name="notifications.push_tasks.send_push", ignore_result=True)
def send_push(notice_id: int) -> int:
    return push.send_push(notice_id)
