"""Schema violations in the platform's words (games/engines/schema.py): one sentence per
validator kind naming the field by its title and the bound, in English and in Czech.

The Czech cases read the project's catalog (locale/cs/LC_MESSAGES/engines.mo); the new
entries come from locale/cs/pending/msgs-engines.po until the lead merges them."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engines import i18n
from games.engines import schema as schema_checks
from games.engines.base import InvalidOptions
from games.engines.registry import ENGINES

LOCALE = Path(__file__).resolve().parents[3] / "locale"


@pytest.fixture
def language(request):
    token = i18n.set_language(request.param, LOCALE)
    yield request.param
    i18n.reset_language(token)


def kinds_schema() -> dict:
    """One property per validator kind, titled, as an engine would write it."""
    return {
        "type": "object",
        "properties": {
            "tiles": {"type": "integer", "minimum": 0, "maximum": 22, "title": "tiles in the mix"},
            "speed": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 2.5,
                      "title": "speed"},
            "side": {"enum": ["a", "b"], "title": "side", "x-labels": {"a": "front", "b": "back"}},
            "mode": {"const": "fixed", "title": "mode"},
            "tags": {"type": "array", "minItems": 2, "maxItems": 3, "title": "tags"},
            "word": {"type": "string", "minLength": 2, "maxLength": 4, "title": "word"},
            "step": {"type": "integer", "multipleOf": 5, "title": "step"},
            "depth": {"type": ["integer", "null"], "title": "depth"},
            "mix": {
                "type": "object",
                "title": "mix",
                "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
                "additionalProperties": False,
                "x-total": 10,
            },
            "route": {
                "anyOf": [
                    {"type": "null"},
                    {
                        "type": "object",
                        "properties": {"start": {"title": "start"}, "end": {"title": "end"}},
                        "required": ["start", "end"],
                    },
                ],
                "title": "route",
            },
        },
        "additionalProperties": False,
    }  # fmt: skip


# (instance, English, Czech)
CASES = [
    ({"tiles": 23}, "Tiles in the mix: at most 22.", "Tiles in the mix: nejvýše 22."),
    ({"tiles": -1}, "Tiles in the mix: at least 0.", "Tiles in the mix: alespoň 0."),
    ({"speed": 2.5}, "Speed: less than 2.5.", "Speed: méně než 2,5."),
    ({"speed": 0}, "Speed: more than 0.", "Speed: více než 0."),
    ({"tiles": "many"}, "Tiles in the mix: must be a whole number.",
     "Tiles in the mix: musí být celé číslo."),
    ({"depth": 1.5}, "Depth: must be a whole number or null (nothing).",
     "Depth: musí být celé číslo nebo null (nic)."),
    ({"side": "c"}, "Side: choose one of “front”, “back”.",
     "Side: zvolte jednu z možností „front“, „back“."),
    ({"mode": "free"}, "Mode: must be “fixed”.", "Mode: musí být „fixed“."),
    ({"route": {"start": 1}}, "Route / end: missing.", "Route / end: chybí."),
    ({"route": "north"}, "Route: must be null (nothing) or a JSON object.",
     "Route: musí být null (nic) nebo objekt JSON."),
    ({"colour": "red"}, "Options: unknown setting “colour”.", "Volby: neznámé nastavení „colour“."),
    ({"colour": 1, "size": 2}, "Options: unknown settings “colour”, “size”.",
     "Volby: neznámá nastavení „colour“, „size“."),
    ({"tags": [1]}, "Tags: at least 2 items.", "Tags: alespoň 2 položky."),
    ({"tags": [1, 2, 3, 4]}, "Tags: at most 3 items.", "Tags: nejvýše 3 položky."),
    ({"word": "a"}, "Word: at least 2 characters.", "Word: alespoň 2 znaky."),
    ({"word": "abcdefg"}, "Word: at most 4 characters.", "Word: nejvýše 4 znaky."),
    ({"mix": {"x": 3, "y": 4}}, "Mix: the numbers must add up to 10, not 7.",
     "Mix: součet musí být 10, ne 7."),
    ({"mix": {"x": 30, "z": 1}}, "Mix: unknown setting “z”.", "Mix: neznámé nastavení „z“."),
    ({"step": 7}, "Step: not a valid value.", "Step: neplatná hodnota."),
]  # fmt: skip


def _message(instance) -> str:
    schema = kinds_schema()
    error = schema_checks.best_error(schema, instance)
    assert error is not None, instance
    return schema_checks.explain(error, schema)


@pytest.mark.parametrize("language", ["en"], indirect=True)
@pytest.mark.parametrize(("instance", "english", "czech"), CASES)
def test_each_validator_kind_in_english(language, instance, english, czech):
    assert _message(instance) == english


@pytest.mark.parametrize("language", ["cs"], indirect=True)
@pytest.mark.parametrize(("instance", "english", "czech"), CASES)
def test_each_validator_kind_in_czech(language, instance, english, czech):
    assert _message(instance) == czech


@pytest.mark.parametrize("language", ["cs"], indirect=True)
def test_czech_plurals_have_the_three_forms_of_the_engines_catalog(language):
    one = {**kinds_schema(), "properties": {"tags": {"type": "array", "minItems": 1}}}
    five = {**kinds_schema(), "properties": {"tags": {"type": "array", "minItems": 5}}}
    assert schema_checks.explain(schema_checks.best_error(one, {"tags": []}), one) == (
        "Tags: alespoň 1 položka."
    )
    assert schema_checks.explain(schema_checks.best_error(five, {"tags": []}), five) == (
        "Tags: alespoň 5 položek."
    )


def test_the_total_is_only_checked_once_every_count_is_valid():
    schema = kinds_schema()
    assert schema_checks.best_error(schema, {"mix": {"x": 5, "y": 5}}) is None
    error = schema_checks.best_error(schema, {"mix": {"x": "5", "y": 5}})
    assert error.validator == "type" and list(error.absolute_path) == ["mix", "x"]


# ---- the engines ---------------------------------------------------------------------------
DEFAULT_MIX = ENGINES["silkroad"].default_options()["tile_mix"]
SILK_ROAD = [
    ({"board_side": "blank", "tile_mix": {"bazaar": 23}}, ("tile_mix", "bazaar"),
     "Tile mix / bazaar: at most 22.", "Počty destiček akcí / bazar: nejvýše 22."),
    ({"board_side": "blank", "tile_mix": {"bazaar": -1}}, ("tile_mix", "bazaar"),
     "Tile mix / bazaar: at least 0.", "Počty destiček akcí / bazar: alespoň 0."),
    ({"tile_mix": {"bazaar": "many"}}, ("tile_mix", "bazaar"),
     "Tile mix / bazaar: must be a whole number.",
     "Počty destiček akcí / bazar: musí být celé číslo."),
    ({"board_side": "blank", "tile_mix": {"bazaar": 5}}, ("tile_mix",),
     "Tile mix: the numbers must add up to 22, not 5.",
     "Počty destiček akcí: součet musí být 22, ne 5."),
    ({"board_side": "moon"}, ("board_side",),
     "Board side: choose one of “printed action fields”, “blank: the tiles of the tile mix "
     "shuffled”.",
     "Strana herního plánu: zvolte jednu z možností „předtištěná pole akcí“, „prázdná pole "
     "akcí: zamíchané destičky akcí“."),
    ({"start_cities": {"1": {"start": "tashkent"}, "2": {}, "3": {}}}, ("start_cities", "1"),
     "Start cities / 1-camel caravan / target: missing.",
     "Výchozí a cílová města / jednočlenná karavana / cílové město: chybí."),
    ({"colour": "red"}, (), "Options: unknown setting “colour”.",
     "Volby: neznámé nastavení „colour“."),
    ({"tile_mix": {**DEFAULT_MIX, "bazaar": 2, "baksheesh": 0}}, ("tile_mix",),
     "Tile mix: only the blank board side takes a tile mix.",
     "Počty destiček akcí: vlastní počty destiček jsou jen pro stranu plánu s prázdnými poli "
     "akcí."),
]  # fmt: skip


@pytest.mark.parametrize("language", ["en", "cs"], indirect=True)
@pytest.mark.parametrize(("options", "path", "english", "czech"), SILK_ROAD)
def test_silk_road_options_are_refused_in_the_platforms_words(
    language, options, path, english, czech
):
    with pytest.raises(InvalidOptions) as raised:
        ENGINES["silkroad"].validate_options(options)
    assert str(raised.value) == (english if language == "en" else czech)
    assert raised.value.path == path


BOT_PARAMS = [
    ("greedy", {"depth": 0}, "Greedy bot / look-ahead depth: at least 1.",
     "Hladový bot / hloubka propočtu: alespoň 1."),
    ("greedy", {"samples": 17}, "Greedy bot / sampled deals: at most 16.",
     "Hladový bot / počet vzorků skrytých karet: nejvýše 16."),
    ("greedy", {"depth": 1.5}, "Greedy bot / look-ahead depth: must be a whole number.",
     "Hladový bot / hloubka propočtu: musí být celé číslo."),
    ("greedy", {"colour": "red"}, "Greedy bot: unknown setting “colour”.",
     "Hladový bot: neznámé nastavení „colour“."),
    ("ismcts", {"time_s": 0.001}, "Search bot / seconds per decision: at least 0.01.",
     "Prohledávací bot / sekundy na rozhodnutí: alespoň 0,01."),
    ("ismcts", {"rollout_depth": "deep"},
     "Search bot / playout depth: must be a whole number or null (nothing).",
     "Prohledávací bot / hloubka dohrávky: musí být celé číslo nebo null (nic)."),
    ("random", [1], "Random bot: must be a JSON object.", "Náhodný bot: musí být objekt JSON."),
]  # fmt: skip


@pytest.mark.parametrize("language", ["en", "cs"], indirect=True)
@pytest.mark.parametrize(("bot", "params", "english", "czech"), BOT_PARAMS)
def test_bot_parameters_are_refused_in_the_platforms_words(language, bot, params, english, czech):
    with pytest.raises(InvalidOptions) as raised:
        ENGINES["silkroad"].check_bot_params(bot, params)
    assert str(raised.value) == (english if language == "en" else czech)


@pytest.mark.parametrize("language", ["en"], indirect=True)
def test_a_lowered_time_ceiling_is_the_bound_named(language):
    with pytest.raises(
        InvalidOptions, match=r"^Search bot / seconds per decision: at most 1\.5\.$"
    ):
        ENGINES["yspahan"].check_bot_params("ismcts", {"time_s": 2}, max_time_s=1.5)


GARBAGE = [None, 0, -1, 1.5, 10**30, "", "x" * 500, [], [1, "a"], {}, {"1": None},
           {"1": {"start": None, "target": []}}, True, {"": {}}, {"bazaar": {"x": 1}}]  # fmt: skip


@pytest.mark.parametrize("language", ["en", "cs"], indirect=True)
@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_any_value_of_any_option_is_refused_with_a_message_never_a_crash(language, slug):
    engine = ENGINES[slug]
    keys = [*engine.option_schema().get("properties", {}), "unknown"]
    for key in keys:
        for value in GARBAGE:
            try:
                engine.validate_options({key: value})
            except InvalidOptions as exc:
                assert str(exc) and "is not of type" not in str(exc), (key, value)
    for bot in engine.bot_names():
        for value in [*GARBAGE, {"depth": "x", "time_s": None, "iterations": [], "z": 1}]:
            try:
                engine.check_bot_params(bot, value if isinstance(value, dict) else {"p": value})
            except InvalidOptions as exc:
                assert str(exc), (bot, value)
