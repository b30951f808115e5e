"""The engines speak the request's language.

Django's LocaleMiddleware picks the language (Accept-Language, the switcher's
cookie); this middleware hands the same choice to the engines' own gettext
(games/engines/i18n.py) for the duration of the request, reading the engines
catalog from the project's LOCALE_PATHS, and restores English afterwards so a
pooled thread never carries one visitor's language into the next request.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_noop

from games.engines import i18n as engine_i18n


def engine_localedir() -> str:
    return str(settings.LOCALE_PATHS[0])


def activate_engine_language(language: str | None):
    """Set the engines' language for the current context; returns a reset token."""
    return engine_i18n.set_language(language, engine_localedir())


class EngineLanguageMiddleware:
    """Must run after LocaleMiddleware (which activates the request's language)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = activate_engine_language(translation.get_language())
        try:
            return self.get_response(request)
        finally:
            engine_i18n.reset_language(token)


# The engines' titles, for the django catalog: templates show `{% translate game.title %}`
# and choices use gettext_lazy(engine.title). Czech: Hedvábná stezka, Yspahan, Čingischán.
GAME_TITLES = [
    gettext_noop("Silk Road"),
    gettext_noop("Yspahan"),
    gettext_noop("Great Wall"),
]
# What breaks a tie at the table in a typed-in result (Engine.tiebreak_label), named in the
# result form's seat labels.
ENGINE_TIEBREAK_LABELS = [gettext_noop("camel driver value")]
# Who moves first in each game (Engine.start_player), stated in the lobby.
ENGINE_START_PLAYERS = [
    gettext_noop(
        "The player dealt the lowest camel driver moves first (the drivers are dealt at random)."
    ),
    gettext_noop(
        "Seat 1 is the start player on the first day; each new day the start player passes "
        "counter-clockwise (with 2 or 4 players, the lowest score starts the last day)."
    ),
    gettext_noop("Seat 1 moves first; the others follow in seat order."),
]
# Tie-break identifiers shown as standings column heads (`{% translate tb %}`).
TIEBREAK_NAMES = [
    gettext_noop("buchholz"),
    gettext_noop("median_buchholz"),
    gettext_noop("sonneborn_berger"),
    gettext_noop("average_place"),
    gettext_noop("head_to_head"),
    gettext_noop("rating"),
]
