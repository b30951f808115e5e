"""Variant options: board side, tile mix for the blank side, chosen start/target cities."""

from __future__ import annotations

from functools import cache

from games.engines import schema as schema_checks
from games.engines.base import InvalidOptions
from games.engines.i18n import _

from .board import BoardError, check_start, check_tile_mix, default_board
from .constants import ACTION_KINDS, CARAVAN_SIZES, NUM_VILLAGES
from .labels import action_label


@cache
def _validator():
    # Compiled once: bots and tests start many games. Its titles stay in the language of
    # the first call, so messages take their labels from a fresh schema.
    return schema_checks.validator(option_schema())


def validate_schema(options: dict) -> None:
    error = schema_checks.best_error(_validator(), options)
    if error is not None:
        message = schema_checks.explain(error, option_schema())
        raise InvalidOptions(message, path=error.absolute_path)


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


def _label(key: str) -> str:
    title = option_schema()["properties"][key]["title"]
    return title[:1].upper() + title[1:]


def check_options(options: dict) -> None:
    board = default_board()
    try:
        # The schema has checked kinds, counts and their total ("x-total"): a failure here
        # would be a schema that no longer says what the board needs.
        check_tile_mix(options["tile_mix"])
    except BoardError as exc:
        raise InvalidOptions(f"{_label('tile_mix')}: {exc}", path=("tile_mix",)) from None
    used = {k: n for k, n in options["tile_mix"].items() if n}
    if options["board_side"] == "printed" and used != board.default_tile_mix:
        raise InvalidOptions(
            _("{field}: only the blank board side takes a tile mix.").format(
                field=_label("tile_mix")
            ),
            path=("tile_mix",),
        )
    chosen = options["start_cities"]
    if chosen is not None:
        start = {
            size: (
                board.index[chosen[str(size)]["start"]],
                board.index[chosen[str(size)]["target"]],
            )
            for size in CARAVAN_SIZES
        }
        cities = [c for pair in start.values() for c in pair]
        if len(set(cities)) != len(cities):
            raise InvalidOptions(
                _("{field}: the three start and three target cities must be six different "
                  "cities.").format(field=_label("start_cities")),
                path=("start_cities",),
            )  # fmt: skip
        try:
            check_start(start)
        except BoardError as exc:
            raise InvalidOptions(
                f"{_label('start_cities')}: {exc}", path=("start_cities",)
            ) from None


def start_cities(options: dict) -> dict[int, tuple[int, int]]:
    board = default_board()
    chosen = options["start_cities"]
    if chosen is None:
        return dict(board.start)
    return {
        size: (board.index[chosen[str(size)]["start"]], board.index[chosen[str(size)]["target"]])
        for size in CARAVAN_SIZES
    }
