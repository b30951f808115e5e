from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from tournaments import (
            live_feeds,  # noqa: F401  (registers the tournament and screen feeds with core.live)
            receivers,  # noqa: F401  (connects the match_finished receiver)
        )
