"""The beat-driven heartbeat task is gone (workers write `WorkerHeartbeat` rows themselves).

django-celery-beat's database scheduler copies CELERY_BEAT_SCHEDULE into PeriodicTask rows
and never deletes a row whose entry left the settings: without this, an upgraded beat
would go on sending the removed task every 30 s, and the workers would refuse it as
unregistered."""

from django.db import migrations
from django.utils import timezone

REMOVED_TASK = "games.tasks.heartbeat"


def remove_beat_heartbeat_entry(apps, schema_editor):
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    PeriodicTasks = apps.get_model("django_celery_beat", "PeriodicTasks")
    if PeriodicTask.objects.filter(task=REMOVED_TASK).delete()[0]:
        # What a delete through the real model signals: a running beat reloads its schedule.
        PeriodicTasks.objects.update_or_create(ident=1, defaults={"last_update": timezone.now()})


class Migration(migrations.Migration):
    dependencies = [
        ("operations", "0001_ops17_initial"),
        ("django_celery_beat", "0001_initial"),
    ]

    operations = [migrations.RunPython(remove_beat_heartbeat_entry, migrations.RunPython.noop)]
