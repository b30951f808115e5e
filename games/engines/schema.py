"""Validation against the engines' JSON Schemas (variant options, bot parameters), in the
platform's own, translated words.

jsonschema's messages ("23 is greater than the maximum of 22") are English and name the
raw key; players and organisers read a field's human label (the schema's "title") and the
bound: "Tile mix / Bazaar: at most 22." Each validator kind has its sentence here, and an
unknown kind a general one. Labels are looked up in the schema given to `explain`, built in
the current language (a cached, compiled validator keeps the titles of the language it
was built in, so the caller passes a fresh schema).

Also the custom keyword "x-total" (an object of counts must add up to this number): the
validator enforces it, so forms, the lobby and the API word it like the others.
"""

from __future__ import annotations

import functools
import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import jsonschema
from jsonschema import validators

from games.engines.i18n import _, ngettext, pgettext


def _total(validator, total, instance, schema):
    # The total is checked once the counts themselves are valid: "Bazaar: at most 22"
    # says more than "must add up to 22, not 23" (best_match prefers the shallower error).
    if not validator.is_type(instance, "object"):
        return
    rest = {k: v for k, v in schema.items() if k != "x-total"}
    if not validator.evolve(schema=rest).is_valid(instance):
        return
    counts = list(instance.values())
    numbers = all(isinstance(n, int | float) and not isinstance(n, bool) for n in counts)
    if numbers and sum(counts) != total:
        yield jsonschema.ValidationError(f"the counts add up to {sum(counts)}, not {total}")


Validator = validators.extend(jsonschema.Draft202012Validator, {"x-total": _total})


def validator(schema: dict) -> jsonschema.protocols.Validator:
    """A validator for `schema` (checked first: a broken schema is a bug, not bad input).
    Compiled once per distinct schema: checking a schema takes ~5 ms, and every match
    made checks its bots' parameters."""
    return _compiled(json.dumps(schema, sort_keys=True))


@functools.lru_cache(maxsize=256)
def _compiled(schema_json: str) -> jsonschema.protocols.Validator:
    schema = json.loads(schema_json)
    Validator.check_schema(schema)
    return Validator(schema)


def best_error(check, instance: Any) -> jsonschema.ValidationError | None:
    """The most relevant violation (`check`: a schema or a validator), or None."""
    check = validator(check) if isinstance(check, dict) else check
    return jsonschema.exceptions.best_match(check.iter_errors(instance))


def best_error_per_property(schema: dict, instance: Any) -> dict[str | None, Any]:
    """{top-level property (None: the object itself): its most relevant violation}."""
    grouped: dict[str | None, list] = defaultdict(list)
    for error in validator(schema).iter_errors(instance):
        top = error.absolute_path[0] if error.absolute_path else None
        grouped[top].append(error)
    return {top: jsonschema.exceptions.best_match(errors) for top, errors in grouped.items()}


# ---- words ---------------------------------------------------------------------------------
def _number(value: Any) -> str:
    if isinstance(value, float):
        text = f"{value:g}"
        # Translators: the decimal separator of numbers in messages ("," in Czech).
        return text.replace(".", pgettext("decimal separator", "."))
    return str(value)


def _quoted(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if len(text) > 60:
        text = text[:59] + "…"
    # Translators: quotation marks around a value or a name in a message.
    return _("“{text}”").format(text=text)


def _listing(items: Iterable[str]) -> str:
    return ", ".join(items)


def _type_name(kind: str) -> str:
    names = {
        "integer": _("a whole number"),
        "number": _("a number"),
        "string": _("text"),
        "boolean": _("true or false"),
        "object": _("a JSON object"),
        "array": _("a list"),
        "null": _("null (nothing)"),
    }
    return names.get(kind, kind)


def _types(error: jsonschema.ValidationError) -> list[str]:
    """The accepted types; for one branch of anyOf/oneOf whose branches all failed on
    their type, the types of every branch ("null or a JSON object")."""
    parent = error.parent
    if parent is not None and _all_types(parent):
        kinds: list[str] = []
        for e in parent.context:
            for kind in _as_list(e.validator_value):
                if kind not in kinds:
                    kinds.append(kind)
        return kinds
    return _as_list(error.validator_value)


def _all_types(error: jsonschema.ValidationError) -> bool:
    """An anyOf/oneOf whose every branch failed on its type (a wrong kind of value)."""
    return (
        error.validator in ("anyOf", "oneOf")
        and bool(error.context)
        and all(e.validator == "type" for e in error.context)
    )


def _as_list(value: Any) -> list:
    return list(value) if isinstance(value, list | tuple) else [value]


def _title(node: dict, key: str) -> str:
    title = node.get("title") if isinstance(node, dict) else None
    return str(title) if title else key.replace("_", " ")


def _labels(schema: dict, schema_path: Sequence) -> tuple[list[str], dict]:
    """The human labels of the properties along `schema_path` (up to its keyword), and the
    schema holding the keyword. The root's title leads when it has one (a bot's name)."""
    labels = [str(schema["title"])] if schema.get("title") else []
    node: Any = schema
    steps = list(schema_path)[:-1]
    for i, step in enumerate(steps):
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
        if i > 0 and steps[i - 1] == "properties" and isinstance(node, dict):
            labels.append(_title(node, str(step)))
    return labels, node if isinstance(node, dict) else {}


def _field(labels: list[str], root_label: str) -> str:
    text = " / ".join(labels) if labels else root_label
    return text[:1].upper() + text[1:]


def explain(error: jsonschema.ValidationError, schema: dict, root_label: str | None = None) -> str:
    """One sentence for `error`, naming the field by its labels in `schema` (which must be
    the schema the error came from, possibly rebuilt in the current language)."""
    if error.validator in ("anyOf", "oneOf") and error.context and not _all_types(error):
        # The value has the right type for some branch: what that branch says is wrong
        # (best_match stops here when the branch's errors are all alike).
        inner = [e for e in error.context if e.validator != "type"]
        shallowest = min(len(e.path) for e in inner)
        first = next(e for e in inner if len(e.path) == shallowest)  # in the schema's order
        return explain(first, schema, root_label)
    labels, node = _labels(schema, error.absolute_schema_path)
    kind, bound = error.validator, error.validator_value
    root = root_label or _("Options")
    if kind == "required":
        instance = error.instance if isinstance(error.instance, dict) else {}
        missing = next((k for k in bound if k not in instance), None)
        if missing is not None:
            props = node.get("properties", {})
            labels = [*labels, _title(props.get(missing, {}), str(missing))]
        return _("{field}: missing.").format(field=_field(labels, root))
    field = _field(labels, root)
    if kind == "maximum":
        return _("{field}: at most {limit}.").format(field=field, limit=_number(bound))
    if kind == "minimum":
        return _("{field}: at least {limit}.").format(field=field, limit=_number(bound))
    if kind == "exclusiveMaximum":
        return _("{field}: less than {limit}.").format(field=field, limit=_number(bound))
    if kind == "exclusiveMinimum":
        return _("{field}: more than {limit}.").format(field=field, limit=_number(bound))
    if _all_types(error):
        kind, error = "type", error.context[0]
    if kind == "type":
        kinds = _(" or ").join(_type_name(k) for k in _types(error))
        return _("{field}: must be {kinds}.").format(field=field, kinds=kinds)
    if kind == "enum":
        names = node.get("x-labels") or {}
        choices = _listing(
            _quoted(names.get(v, v) if isinstance(v, str) else v) for v in _as_list(bound)
        )
        return _("{field}: choose one of {choices}.").format(field=field, choices=choices)
    if kind == "const":
        return _("{field}: must be {value}.").format(field=field, value=_quoted(bound))
    if kind == "additionalProperties" and isinstance(error.instance, dict):
        known = set(node.get("properties", {}))
        extra = [k for k in error.instance if k not in known]
        if extra:
            return ngettext(
                "{field}: unknown setting {names}.", "{field}: unknown settings {names}.",
                len(extra),
            ).format(field=field, names=_listing(_quoted(k) for k in extra))  # fmt: skip
    if kind in ("minItems", "maxItems", "minLength", "maxLength") and isinstance(bound, int):
        words = {
            "minItems": ngettext(
                "{field}: at least {n} item.", "{field}: at least {n} items.", bound
            ),
            "maxItems": ngettext(
                "{field}: at most {n} item.", "{field}: at most {n} items.", bound
            ),
            "minLength": ngettext(
                "{field}: at least {n} character.", "{field}: at least {n} characters.", bound
            ),
            "maxLength": ngettext(
                "{field}: at most {n} character.", "{field}: at most {n} characters.", bound
            ),
        }
        return words[kind].format(field=field, n=bound)
    if kind == "x-total" and isinstance(error.instance, dict):
        got = sum(error.instance.values())
        return _("{field}: the numbers must add up to {total}, not {got}.").format(
            field=field, total=_number(bound), got=_number(got)
        )
    return _("{field}: not a valid value.").format(field=field)
