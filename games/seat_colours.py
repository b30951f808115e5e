"""Each seat's colour as the game's board draws it, for the pages around the board (the
seats table, the log, the "since your move" strip): read from the renderers' own
constants so the page and the picture never disagree."""

from __future__ import annotations

from importlib import import_module

from games.engines.words import colour_name

# Where each game keeps its seat fills and their colour words (seat order).
_SOURCES = {
    "greatwall": (("render", "SEAT_FILL"), ("labels", "SEAT_NAMES")),
    "yspahan": (("render", "SEAT_COLOURS"), ("render", "SEAT_NAMES")),
    # Silk Road's seats have no colour on its board; should its renderer gain one, it is here.
    "silkroad": (("render", "SEAT_COLOURS"), ("render", "SEAT_NAMES")),
}


def _constant(game: str, module: str, name: str):
    try:
        return getattr(import_module(f"games.engines.{game}.{module}"), name, None)
    except ImportError:
        return None


def seat_colour(game: str, seat: int) -> dict | None:
    """{"fill": "#d32f2f", "name": "red" (in the current language)} for the seat, or None
    when the game's board gives seats no colour."""
    source = _SOURCES.get(game)
    if source is None or seat is None or seat < 0:
        return None
    fills, names = _constant(game, *source[0]), _constant(game, *source[1])
    if not fills:
        return None
    name = names[seat % len(names)] if names else ""
    return {"fill": fills[seat % len(fills)], "name": colour_name(name) if name else ""}
