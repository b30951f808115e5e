"""What the operations page reads besides matches and pools: worker heartbeats and
the tasks that keep failing. Written by the workers, only read by the web."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class WorkerHeartbeat(models.Model):
    """One Celery worker process: its main process upserts this row every few seconds."""

    hostname = models.CharField(_("worker"), max_length=200)
    pid = models.PositiveIntegerField(_("process"))
    started_at = models.DateTimeField(_("started"))
    last_seen = models.DateTimeField(_("last seen"), db_index=True)
    stopped_at = models.DateTimeField(_("stopped"), null=True, blank=True)
    tasks = models.PositiveBigIntegerField(_("tasks taken"), default=0)

    class Meta:
        ordering = ["-last_seen"]
        verbose_name = _("worker heartbeat")
        verbose_name_plural = _("worker heartbeats")
        constraints = [
            models.UniqueConstraint(fields=["hostname", "pid"], name="heartbeat_unique_process")
        ]

    def __str__(self) -> str:
        return f"{self.hostname} ({self.pid})"


class TaskFailure(models.Model):
    """A task that raised, by task name and key (its first argument, e.g. a match id).

    Counted while it keeps failing; deleted when the same task and key next succeed."""

    task = models.CharField(_("task"), max_length=200)
    key = models.CharField(_("key"), max_length=100, blank=True)
    count = models.PositiveIntegerField(_("failures"), default=1)
    last_error = models.TextField(_("last error"))
    first_at = models.DateTimeField(_("first failure"))
    last_at = models.DateTimeField(_("last failure"))

    class Meta:
        ordering = ["-count", "-last_at"]
        verbose_name = _("task failure")
        verbose_name_plural = _("task failures")
        constraints = [models.UniqueConstraint(fields=["task", "key"], name="failure_unique_key")]

    def __str__(self) -> str:
        return f"{self.task}[{self.key}] x{self.count}"
