from celery import shared_task

from notifications import services


@shared_task(name="notifications.tasks.send_digests")
def send_digests() -> int:
    """Once a day (beat): one mail per person with the notices she takes "daily"."""
    return services.send_digests()
