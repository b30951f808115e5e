"""Variant options: board side, tile mix for the blank side, chosen start/target cities."""

from __future__ import annotations

from functools import cache

import jsonschema

from games.engines.base import InvalidOptions
from games.engines.i18n import _

from .board import BoardError, check_start, check_tile_mix, default_board
from .constants import ACTION_KINDS, CARAVAN_SIZES, NUM_VILLAGES
from .labels import action_label


@cache
def _validator() -> jsonschema.Draft202012Validator:
    schema = option_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def validate_schema(options: dict) -> None:
    error = jsonschema.exceptions.best_match(_validator().iter_errors(options))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "options"
        raise InvalidOptions(f"{where}: {error.message}")


def option_schema() -> dict:
    """The options, annotated for forms (the admin builds its variant form from this):
    "title" names a property, "x-labels" names enum values, "x-total" is the sum an
    object of counts must reach. Annotations are in the current language; only the
    validation keywords matter to the validator."""
    board = default_board()
    city_ids = list(board.ids[:6])
    cities = {cid: _(board.names[i]) for i, cid in enumerate(city_ids)}
    route = {
        "type": "object",
        "properties": {
            "start": {"enum": city_ids, "title": _("start"), "x-labels": cities},
            "target": {"enum": city_ids, "title": _("target"), "x-labels": cities},
        },
        "required": ["start", "target"],
        "additionalProperties": False,
    }
    caravans = {1: _("1-camel caravan"), 2: _("2-camel caravan"), 3: _("3-camel caravan")}
    return {
        "type": "object",
        "properties": {
            "board_side": {
                "enum": ["printed", "blank"],
                "default": "printed",
                "title": _("board side"),
                "x-labels": {
                    "printed": _("printed action fields"),
                    "blank": _("blank: the tiles of the tile mix shuffled"),
                },
                "description": _(
                    "printed: the fixed action fields; blank: the tiles of tile_mix "
                    "shuffled onto the 22 action fields"
                ),
            },
            "tile_mix": {
                "type": "object",
                "properties": {
                    k: {"type": "integer", "minimum": 0, "maximum": 22, "title": action_label(k)}
                    for k in ACTION_KINDS
                },
                "additionalProperties": False,
                "default": dict(board.default_tile_mix),
                "title": _("tile mix"),
                "x-total": NUM_VILLAGES,
                "description": _(
                    "how many tiles of each action kind (22 in all) for the blank side; "
                    "missing kinds count 0"
                ),
            },
            "start_cities": {
                "anyOf": [
                    {"type": "null"},
                    {
                        "type": "object",
                        "properties": {
                            str(size): {**route, "title": caravans[size]} for size in CARAVAN_SIZES
                        },
                        "required": [str(size) for size in CARAVAN_SIZES],
                        "additionalProperties": False,
                    },
                ],
                "default": None,
                "title": _("start cities"),
                "description": _(
                    "experienced players' variant: start and target city of the "
                    "1-, 2- and 3-camel caravans (six different cities); null = the rulebook's"
                ),
            },
        },
        "additionalProperties": False,
    }


def check_options(options: dict) -> None:
    board = default_board()
    try:
        check_tile_mix(options["tile_mix"])
    except BoardError as exc:
        raise InvalidOptions(f"tile_mix: {exc}") from None
    used = {k: n for k, n in options["tile_mix"].items() if n}
    if options["board_side"] == "printed" and used != board.default_tile_mix:
        raise InvalidOptions("tile_mix: only the blank board side takes a tile mix")
    chosen = options["start_cities"]
    if chosen is not None:
        start = {
            size: (
                board.index[chosen[str(size)]["start"]],
                board.index[chosen[str(size)]["target"]],
            )
            for size in CARAVAN_SIZES
        }
        try:
            check_start(start)
        except BoardError as exc:
            raise InvalidOptions(f"start_cities: {exc}") from None


def start_cities(options: dict) -> dict[int, tuple[int, int]]:
    board = default_board()
    chosen = options["start_cities"]
    if chosen is None:
        return dict(board.start)
    return {
        size: (board.index[chosen[str(size)]["start"]], board.index[chosen[str(size)]["target"]])
        for size in CARAVAN_SIZES
    }
