"""The variant form made from an engine's option schema (games/variant_form.py): for every
registered engine (and a test engine with every kind of option), every valid option set
goes form → options → form unchanged, and each violation is refused with the message the
engine's own validation gives."""

from __future__ import annotations

import copy
import itertools
import random
from html.parser import HTMLParser

import pytest

from games.admin_variants import variant_form_class
from games.engines.base import Engine, InvalidOptions
from games.engines.registry import ENGINES
from games.models import Variant
from games.variant_form import field_name
from tests.games.engines.toy import ToyEngine

pytestmark = pytest.mark.django_db


class RichEngine(ToyEngine):
    """The toy game with one option of every kind a schema may hold."""

    slug = "rich"

    def option_schema(self) -> dict:
        schema = copy.deepcopy(super().option_schema())
        schema["properties"].update(
            {
                "fast": {"type": "boolean", "default": False, "description": "play fast"},
                "colour": {"enum": ["red", "blue"], "default": "red", "x-labels": {"red": "Red"}},
                "counts": {
                    "type": "object",
                    "x-total": 5,
                    "default": {"a": 2, "b": 3},
                    "properties": {
                        k: {"type": "integer", "minimum": 0, "maximum": 5} for k in ("a", "b", "c")
                    },
                    "additionalProperties": False,
                },  # fmt: skip
                "pair": {
                    "default": None,
                    "anyOf": [
                        {"type": "null"},
                        {
                            "type": "object",
                            "properties": {"x": {"enum": [1, 2, 3]}, "y": {"enum": [1, 2, 3]}},
                            "required": ["x", "y"],
                            "additionalProperties": False,
                        },
                    ],
                },
                "tags": {"type": "array", "items": {"type": "string"}, "default": []},
            }
        )
        return schema

    def check_options(self, options: dict) -> None:
        super().check_options(options)
        if sum(options["counts"].values()) != 5:
            raise InvalidOptions(
                f"counts: they must add up to 5, not {sum(options['counts'].values())}"
            )


RICH = RichEngine()
ENGINE_LIST = [*sorted(ENGINES.values(), key=lambda e: e.slug), RICH]


@pytest.fixture(autouse=True)
def _rich_registered(monkeypatch):
    monkeypatch.setitem(ENGINES, RICH.slug, RICH)


# ---- reading a rendered form back as a browser would post it ------------------------------
class _Inputs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.data: dict[str, str] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "input" and a.get("name"):
            if a.get("type") == "checkbox":
                if "checked" in a:
                    self.data[a["name"]] = a.get("value") or "on"
            elif a.get("type") not in ("submit", "button"):
                self.data[a["name"]] = a.get("value") or ""
        elif tag == "select":
            self._select = a.get("name")
            self._first = True
        elif tag == "option" and self._select:
            if self._first or "selected" in a:
                self.data[self._select] = a.get("value", "")
            self._first = False
        elif tag == "textarea":
            self._textarea = a.get("name")
            self.data[self._textarea] = ""

    def handle_data(self, data):
        if self._textarea:
            self.data[self._textarea] += (
                data.lstrip("\n") if not self.data[self._textarea] else data
            )

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        if tag == "textarea":
            self._textarea = None


def posted(form) -> dict[str, str]:
    parser = _Inputs()
    for name in form.option_names:
        parser.feed(str(form[name]))
    return parser.data


def form_for(engine: Engine, options: dict | None = None, data: dict | None = None):
    cls = variant_form_class(engine)
    instance = Variant(game=engine.slug, options=options or {})
    if data is None:
        return cls(instance=instance)
    return cls({"name": "v", "description": "", **data}, instance=instance)


# ---- valid option sets, drawn from the schema ---------------------------------------------
def _samples(schema: dict, rng: random.Random, depth: int = 0) -> list:
    if "enum" in schema:
        return list(schema["enum"])
    kind = schema.get("type")
    if kind == "boolean":
        return [False, True]
    if kind == "integer":
        low = schema.get("minimum", -1000)
        high = schema.get("maximum", low + 1000)
        return sorted({low, high, rng.randint(low, high), rng.randint(low, high)})
    if kind == "object" and "properties" in schema:
        keys = list(schema["properties"])
        out = []
        for _ in range(6):
            value = {}
            for k in keys:
                if k in schema.get("required", []) or rng.random() < 0.8:
                    value[k] = rng.choice(_samples(schema["properties"][k], rng, depth + 1))
            out.append(value)
        return out
    if "anyOf" in schema:
        return [v for branch in schema["anyOf"] for v in _samples(branch, rng, depth)]
    if kind == "null":
        return [None]
    if kind == "array":
        return [[], ["a", "b"]]
    return []


def valid_option_sets(engine: Engine, n: int = 60) -> list[dict]:
    """Option sets the engine accepts: the defaults, then random draws from the schema
    (kept only when validate_options accepts them), with every property's values tried."""
    rng = random.Random(engine.slug)
    props = engine.option_schema().get("properties", {})
    found = [engine.validate_options({})]
    choices = {k: _samples(s, rng) for k, s in props.items()}
    for _ in range(n * 20):
        if len(found) >= n:
            break
        candidate = {k: rng.choice(v) for k, v in choices.items() if v and rng.random() < 0.7}
        try:
            found.append(engine.validate_options(candidate))
        except InvalidOptions:
            continue
    return found


def test_every_engine_offers_something_valid_to_round_trip():
    silk = valid_option_sets(ENGINES["silkroad"])
    assert any(o["board_side"] == "blank" for o in silk)
    assert any(o["start_cities"] is not None for o in silk)
    rich = valid_option_sets(RICH)
    assert any(o["pair"] is not None for o in rich) and any(o["fast"] for o in rich)


@pytest.mark.parametrize("engine", ENGINE_LIST, ids=lambda e: e.slug)
def test_form_to_options_to_form_round_trips_every_valid_option_set(engine):
    for options in valid_option_sets(engine):
        data = posted(form_for(engine, options))
        form = form_for(engine, data=data)
        assert form.is_valid(), (options, form.errors)
        assert form.instance.options == options
        # ... and the saved options show the same form again.
        assert posted(form_for(engine, form.instance.options)) == data


def test_one_field_per_option_with_the_schema_description_and_bounds():
    form = form_for(ENGINES["silkroad"])
    assert form.option_names == [field_name(k) for k in ("board_side", "tile_mix", "start_cities")]
    board_side = form.fields[field_name("board_side")]
    assert "fixed action fields" in str(board_side.help_text)
    html = str(form[field_name("board_side")])
    assert '<option value="blank">' in html and "shuffled" in html  # a human label
    mix = str(form[field_name("tile_mix")])
    assert 'data-total="22"' in mix and 'max="22"' in mix and 'min="0"' in mix
    assert "Black market" in mix and "Total" in mix and "<output data-total-output>22<" in mix
    # Booleans are checkboxes; enums without labels are humanized.
    rich = str(form_for(RICH)[field_name("fast")])
    assert 'type="checkbox"' in rich
    assert '<option value="blue">Blue</option>' in str(form_for(RICH)[field_name("colour")])


# ---- violations ---------------------------------------------------------------------------
def _everything_set(engine: Engine) -> dict:
    """A valid option set with each nullable option given (so its inner fields count)."""
    sets = valid_option_sets(engine)
    return max(sets, key=lambda o: sum(v is not None for v in o.values()))


def violations(engine: Engine) -> list[tuple[str, str, dict]]:
    """(option, what, form data) with one wrong value at a time, found from the schema."""
    base = posted(form_for(engine, _everything_set(engine)))
    out = []

    def walk(schema: dict, name: str, key: str):
        if "enum" in schema:
            out.append((key, f"{name}: not a member", {name: "not-a-member"}))
        kind = schema.get("type")
        if kind == "integer":
            if "minimum" in schema:
                out.append((key, f"{name}: below", {name: str(schema["minimum"] - 1)}))
            if "maximum" in schema:
                out.append((key, f"{name}: above", {name: str(schema["maximum"] + 1)}))
                out.append((key, f"{name}: huge", {name: "9" * 30}))
            out.append((key, f"{name}: text", {name: "many"}))
        objects = [schema] + [b for b in schema.get("anyOf", []) if b.get("type") == "object"]
        for obj in objects:
            for sub, sub_schema in obj.get("properties", {}).items():
                walk(sub_schema, f"{name}__{sub}", key)

    for key, schema in engine.option_schema().get("properties", {}).items():
        walk(schema, field_name(key), key)
    return [(key, what, {**base, **change}) for key, what, change in out]


def engine_message(engine: Engine, form) -> str | None:
    """What validate_options says about the options as the form's fields read them."""
    from games.variant_form import MISSING

    options = {}
    for key in engine.option_schema()["properties"]:
        name = field_name(key)
        value = form.fields[name].clean(form[name].data)
        if value is not MISSING:
            options[key] = value
    try:
        engine.validate_options(options)
    except InvalidOptions as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("engine", ENGINE_LIST, ids=lambda e: e.slug)
def test_each_schema_violation_is_refused_with_the_schemas_message(engine):
    cases = violations(engine)
    if not engine.option_schema().get("properties"):
        assert cases == [] and form_for(engine, data={}).is_valid()
        return
    assert len(cases) >= 10
    for key, what, data in cases:
        form = form_for(engine, data=data)
        expected = engine_message(engine, form)
        assert expected is not None, what  # the engine itself refuses these options
        assert not form.is_valid(), what
        assert form.errors[field_name(key)] == [expected], (what, form.errors)


def test_engine_checks_beyond_the_schema_reach_the_field():
    engine = ENGINES["silkroad"]
    data = posted(form_for(engine, {"board_side": "blank"}))
    data[field_name("tile_mix") + "__bazaar"] = "5"  # 26 tiles
    form = form_for(engine, data=data)
    assert not form.is_valid()
    assert form.errors[field_name("tile_mix")] == [
        "Tile mix: the numbers must add up to 22, not 26."
    ]
    cities = {field_name("start_cities") + "__set": "on"}
    for size, (start, target) in zip("123", itertools.pairwise(["tashkent"] * 4), strict=False):
        cities[f"{field_name('start_cities')}__{size}__start"] = start
        cities[f"{field_name('start_cities')}__{size}__target"] = target
    form = form_for(engine, data={**posted(form_for(engine)), **cities})
    assert not form.is_valid()
    assert form.errors[field_name("start_cities")][0].startswith(
        "Start cities: the three start and three target"
    )


# ---- validator kinds the real engines do not use, through the form ------------------------
class KindsEngine(ToyEngine):
    """The toy game with options bounded by the remaining validator kinds."""

    slug = "kinds"

    def option_schema(self) -> dict:
        schema = copy.deepcopy(super().option_schema())
        schema["properties"].update(
            {
                "speed": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 2.5,
                          "default": 1, "title": "speed"},
                "tags": {"type": "array", "minItems": 1, "maxItems": 2, "default": ["a"],
                         "title": "tags"},
                "word": {"type": "string", "minLength": 2, "maxLength": 4, "default": "ab",
                         "title": "word"},
                "mode": {"const": "fixed", "default": "fixed", "title": "mode"},
                "step": {"type": "integer", "multipleOf": 5, "default": 5, "title": "step"},
            }
        )  # fmt: skip
        return schema


KINDS = KindsEngine()

# (form data, option, English, Czech)
KIND_CASES = [
    ({"opt_speed": "2.5"}, "speed", "Speed: less than 2.5.", "Speed: méně než 2,5."),
    ({"opt_speed": "0"}, "speed", "Speed: more than 0.", "Speed: více než 0."),
    ({"opt_tags": "[]"}, "tags", "Tags: at least 1 item.", "Tags: alespoň 1 položka."),
    ({"opt_tags": '["a", "b", "c"]'}, "tags", "Tags: at most 2 items.",
     "Tags: nejvýše 2 položky."),
    ({"opt_word": "a"}, "word", "Word: at least 2 characters.", "Word: alespoň 2 znaky."),
    ({"opt_word": "abcdefgh"}, "word", "Word: at most 4 characters.", "Word: nejvýše 4 znaky."),
    ({"opt_mode": '"free"'}, "mode", "Mode: must be “fixed”.", "Mode: musí být „fixed“."),
    ({"opt_step": "7"}, "step", "Step: not a valid value.", "Step: neplatná hodnota."),
    ({"opt_values": "13"}, "values", "Values: at most 12.", "Values: nejvýše 12."),
    ({"opt_suits": "1"}, "suits", "Suits: at least 2.", "Suits: alespoň 2."),
    ({"opt_suits": "x"}, "suits", "Suits: must be a whole number.", "Suits: musí být celé číslo."),
]  # fmt: skip


@pytest.mark.parametrize(("change", "key", "english", "czech"), KIND_CASES)
@pytest.mark.parametrize("language", ["en", "cs"])
def test_each_validator_kind_is_worded_on_the_form_in_the_readers_language(
    monkeypatch, change, key, english, czech, language
):
    monkeypatch.setitem(ENGINES, KINDS.slug, KINDS)
    from django.utils import translation

    from games.engines import i18n as engine_i18n
    from games.i18n import activate_engine_language

    token = activate_engine_language(language)
    try:
        with translation.override(language):
            # A JSON field shows a stored string unquoted: the valid value is typed here.
            data = {**posted(form_for(KINDS)), "opt_mode": '"fixed"', **change}
            form = form_for(KINDS, data=data)
            assert not form.is_valid()
            assert form.errors[field_name(key)] == [english if language == "en" else czech]
    finally:
        engine_i18n.reset_language(token)
