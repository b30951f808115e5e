"""Words more than one engine uses, through the engines' `_()`."""

from __future__ import annotations

from games.engines.i18n import _


def colour_name(colour: str) -> str:
    """A piece colour (seats, gems) in the current language; an unknown one as it is."""
    return {
        "blue": _("blue"),
        "yellow": _("yellow"),
        "green": _("green"),
        "red": _("red"),
        "purple": _("purple"),
    }.get(colour, colour)
