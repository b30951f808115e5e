"""App configurations the project adjusts without forking the package."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop
from django_celery_beat.apps import BeatConfig


class CeleryBeatConfig(BeatConfig):
    """django-celery-beat with an app name in the reader's language (the package has no
    Czech catalog)."""

    verbose_name = _("Scheduled tasks")

    def ready(self) -> None:
        super().ready()
        # Its admin forms and lists with labels in the reader's language (the admin's
        # autodiscover, earlier in INSTALLED_APPS, has registered the package's own).
        from config import celery_beat_admin

        celery_beat_admin.register()


# The package's own model names, translated through the project's catalog (LOCALE_PATHS
# come first for every app); listed here so that makemessages keeps them.
CELERY_BEAT_MODEL_NAMES = (
    gettext_noop("periodic task"),
    gettext_noop("periodic tasks"),
    gettext_noop("interval"),
    gettext_noop("intervals"),
    gettext_noop("crontab"),
    gettext_noop("crontabs"),
    gettext_noop("clocked"),
    gettext_noop("solar event"),
    gettext_noop("solar events"),
)
