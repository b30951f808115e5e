from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OperationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "operations"
    verbose_name = _("Operations")

    def ready(self) -> None:
        # Worker heartbeats and task-failure records: receivers of Celery's signals.
        from operations import celery_hooks  # noqa: F401
