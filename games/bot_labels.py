"""Human, translated names for the built-in bots (the raw kinds "random", "greedy" and
"ismcts" are engine names, not words for a reader)."""

import re

from django.utils.formats import get_format
from django.utils.translation import gettext, gettext_noop, ngettext

# Marked for the catalog here, translated when shown (the reader's language).
DESCRIPTIONS = {
    "random": gettext_noop("Plays any legal move, at random."),
    "greedy": gettext_noop("Takes the move that looks best one step ahead."),
    "ismcts": gettext_noop("Looks several moves ahead (Monte-Carlo tree search)."),
}


def bot_kind_name(bot_name: str) -> str:
    """A kind in words, "Greedy bot" for "greedy" (the lobby's words too); an unknown
    kind keeps its name."""
    names = {
        "random": gettext("Random bot"),
        "greedy": gettext("Greedy bot"),
        "ismcts": gettext("Search bot"),
    }
    return names.get(bot_name, bot_name)


def bot_label(bot_name: str, params: dict | None) -> str:
    """The kind and, for a search bot, its budget: "Search bot, 300 iterations"."""
    name, params = bot_kind_name(bot_name), params or {}
    iterations, seconds = params.get("iterations"), params.get("time_s")
    if isinstance(iterations, int):
        return ngettext("%(bot)s, %(n)s iteration", "%(bot)s, %(n)s iterations", iterations) % {
            "bot": name,
            "n": iterations,
        }
    if isinstance(seconds, int | float):
        s = f"{seconds:g}".replace(".", get_format("DECIMAL_SEPARATOR"))  # 1,5 in Czech
        return gettext("%(bot)s, %(s)s s a move") % {"bot": name, "s": s}
    return name


def bot_description(bot_name: str) -> str:
    """One sentence on how the bot plays (empty for an unknown kind)."""
    text = DESCRIPTIONS.get(bot_name)
    return gettext(text) if text else ""


def _generated_name(name: str, bot_name: str) -> bool:
    """A name the lobby made up for a built-in bot: its kind, or kind-<8 hex> for a kind
    with parameters (games.services.players.builtin_bot_player)."""
    return name == bot_name or bool(re.fullmatch(re.escape(bot_name) + r"-[0-9a-f]{8}", name))


def player_label(player) -> str:
    """How a page names a player: the display name, else for a built-in bot with a made-up
    name ("ismcts-23006f80") its kind and budget ("Search bot, 1000 iterations"), else the
    name. The name itself stays the player's address (URLs)."""
    if player.display_name:
        return player.display_name
    if not player.is_active and player.name.startswith("deleted-player-"):
        from games.services.departures import is_anonymous  # services import this module

        if is_anonymous(player):  # a person who deleted her account
            return gettext("deleted player %(id)s") % {"id": player.pk}
    if player.bot_name and _generated_name(player.name, player.bot_name):
        return bot_label(player.bot_name, player.bot_params)
    return player.name
