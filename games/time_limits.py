"""The longest time controls the platform accepts (documented in the README): a week per
decision or on a clock, at most a day added per decision. Here, not in the services,
so that the models' validators and the services share one number without an import cycle."""

from django.utils.translation import gettext_noop

MAX_DECISION_S = 7 * 24 * 3600


def bot_max_think_s() -> float:
    """The server's ceiling on a built-in bot's thinking time per decision (settings
    BOT_MAX_THINK_S, never above the bots' own 5 s)."""
    from django.conf import settings

    from games.engines.bots.common import MAX_TIME_S

    return min(MAX_TIME_S, getattr(settings, "BOT_MAX_THINK_S", MAX_TIME_S))


MAX_INCREMENT_S = 24 * 3600

# A seat whose decisions the time-out bot took this many times in a row (none of its
# own in between) is forfeited: nobody is playing it any more.
TIMEOUTS_TO_FORFEIT = 3

# The names of the presets a fresh install offers (migration 0016 has their values):
# msgids, stored in English and shown in the reader's language (TimeControl.__str__).
PRESET_NAMES = (
    gettext_noop("1 min + 2 s"),
    gettext_noop("3 min + 2 s"),
    gettext_noop("10 min + 5 s"),
    gettext_noop("1 day per move"),
    gettext_noop("3 days per move"),
)
