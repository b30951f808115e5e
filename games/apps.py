from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Games and matches")

    def ready(self) -> None:
        from games import (
            admin_open_seats,  # noqa: F401  (kept apart from games/admin.py)
            live_feeds,  # noqa: F401  (registers the match feed with core.live)
            live_lists,  # noqa: F401  (and the match list's)
            receivers,  # noqa: F401  (every account gets a player)
        )
