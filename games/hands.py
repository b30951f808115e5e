"""Human words for the hidden parts of each seat's record (the replay's "Every hand").

The engines name these parts with internal keys ("active_chips") and count items by
id ("ivory"). A small mapping per game gives each key a label (Django's catalog) and,
for counted items, the engine's own name function (the engines' catalog); the
replay template renders any game the same way."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext_lazy as _

from games.engines.greatwall.labels import face_name
from games.engines.silkroad.labels import colour_name, good_name
from games.engines.yspahan.labels import card_name

# game -> hidden key -> (label, name of a counted item or None)
HAND_FIELDS: dict[str, dict[str, tuple[str, Callable[[str], str] | None]]] = {
    "silkroad": {
        "hand": (_("Goods in hand"), good_name),
        "gems": (_("Gems"), colour_name),
        "score": (_("Score"), None),
    },
    "greatwall": {
        "active_chips": (_("Active supply"), face_name),
        "passive_chips": (_("Passive supply"), face_name),
        "lost_chips": (_("Lost chips"), face_name),
    },
    "yspahan": {
        "hand": (_("Cards in hand"), card_name),
    },
}


def _fallback_label(key: str) -> str:
    # A key an engine adds before this table knows it still reads as words.
    return key.replace("_", " ").capitalize()


def hand_parts(game: str, private: dict) -> list[dict]:
    """[{"label", "items": [(name, count)] or None, "value"}] for one seat's hidden parts."""
    fields = HAND_FIELDS.get(game, {})
    parts = []
    for key, value in private.items():
        label, item_name = fields.get(key, (_fallback_label(key), None))
        name = item_name or str
        if isinstance(value, dict):
            items = [(name(k), v) for k, v in value.items() if v]
            parts.append({"label": label, "items": items, "value": None})
        elif isinstance(value, list):
            parts.append(
                {"label": label, "items": [(name(str(v)), 1) for v in value], "value": None}
            )
        else:
            parts.append({"label": label, "items": None, "value": value})
    return parts
