"""Form fields built from an engine's option schema (the admin's variant form).

One field per top-level option: an enum is a select (labels from the schema's
"x-labels"), an integer a number input with the schema's bounds, a boolean a checkbox,
an object a small table of its properties (with a running total when the schema gives
"x-total"), a nullable object the same table behind a checkbox; anything else is typed
as JSON. Each field's help text is the schema's description, its label the "title".

The fields only shape what was typed: every value goes to the schema and then to the
engine's own checks, and their messages are what the admin reads. No game is named here.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from games.engines import schema as schema_checks
from games.engines.base import Engine, InvalidOptions

PREFIX = "opt_"  # form field names: opt_<option>, nested inputs opt_<option>__<key>
SEP = "__"
SET = "set"  # the checkbox of a nullable object: opt_<option>__set
MISSING = object()
_INTEGER = re.compile(r"^[+-]?\d+$")


def field_name(key: str) -> str:
    return f"{PREFIX}{key}"


def humanize(key: str) -> str:
    return key.replace("_", " ").strip().capitalize()


def _title(schema: dict, key: str) -> str:
    title = schema.get("title")
    return str(title)[:1].upper() + str(title)[1:] if title else humanize(key)


def _choice_key(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _nullable_object(schema: dict) -> dict | None:
    """The object schema of ``anyOf: [{type: null}, {type: object ...}]``, else None."""
    branches = schema.get("anyOf") or schema.get("oneOf") or []
    if len(branches) != 2 or {"type": "null"} not in branches:
        return None
    other = next(b for b in branches if b != {"type": "null"})
    return other if other.get("type") == "object" and "properties" in other else None


# ---- fields ------------------------------------------------------------------------------
class EnumField(forms.Field):
    """A select whose value is the enum member with that key; anything else is passed on
    as typed, for the schema to reject with its own message."""

    def __init__(self, schema: dict, *, blank: bool = False, **kwargs):
        labels = schema.get("x-labels") or {}
        self.members = {_choice_key(v): v for v in schema["enum"]}
        choices = [(k, labels.get(k, humanize(k))) for k in self.members]
        if blank:
            choices.insert(0, ("", "---------"))
        super().__init__(widget=forms.Select(choices=choices), **kwargs)

    def to_python(self, value):
        if value in (None, ""):
            return MISSING
        return self.members.get(value, value)

    def prepare_value(self, value):
        return "" if value is MISSING or value is None else _choice_key(value)

    def validate(self, value):
        if value is MISSING and self.required:
            raise forms.ValidationError(self.error_messages["required"], code="required")


class IntegerSchemaField(forms.Field):
    """A number input with the schema's bounds as browser hints; the bounds themselves are
    the schema's to enforce (its message names the option)."""

    def __init__(self, schema: dict, **kwargs):
        attrs = {"step": 1}
        for key, attr in (("minimum", "min"), ("maximum", "max")):
            if key in schema:
                attrs[attr] = schema[key]
        attrs["class"] = "vIntegerField"
        super().__init__(widget=forms.NumberInput(attrs=attrs), **kwargs)

    def to_python(self, value):
        if value is None or str(value).strip() == "":
            return MISSING
        text = str(value).strip()
        return int(text) if _INTEGER.match(text) else text

    def validate(self, value):
        if value is MISSING and self.required:
            raise forms.ValidationError(self.error_messages["required"], code="required")


class NumberSchemaField(IntegerSchemaField):
    def __init__(self, schema: dict, **kwargs):
        super().__init__(schema, **kwargs)
        self.widget.attrs["step"] = "any"

    def to_python(self, value):
        value = super().to_python(value)
        if isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                return value
        return value


class BooleanSchemaField(forms.BooleanField):
    def __init__(self, schema: dict, **kwargs):
        kwargs["required"] = False
        super().__init__(**kwargs)


class StringSchemaField(forms.CharField):
    def __init__(self, schema: dict, **kwargs):
        super().__init__(strip=False, **kwargs)

    def to_python(self, value):
        return MISSING if value in (None, "") else str(value)

    def validate(self, value):
        if value is MISSING and self.required:
            raise forms.ValidationError(self.error_messages["required"], code="required")


class JSONSchemaField(forms.Field):
    """What has no form of its own (arrays, mixed types): typed as JSON."""

    widget = forms.Textarea(attrs={"rows": 3, "class": "vLargeTextField"})

    def __init__(self, schema: dict, **kwargs):
        super().__init__(**kwargs)

    def to_python(self, value):
        if value in (None, ""):
            return MISSING
        try:
            return json.loads(value)
        except ValueError:
            raise forms.ValidationError(_("Enter valid JSON."), code="invalid") from None

    def prepare_value(self, value):
        if value is MISSING:
            return ""
        return value if isinstance(value, str) else json.dumps(value)

    def validate(self, value):
        if value is MISSING and self.required:
            raise forms.ValidationError(self.error_messages["required"], code="required")


class ObjectWidget(forms.Widget):
    """A table of the object's properties; a checkbox first when the object may be null;
    a running total (static/js/running-total.js) when the schema names one."""

    class Media:
        js = ["js/running-total.js"]
        css = {"all": ["css/variant-admin.css"]}

    def __init__(self, fields: dict[str, tuple[str, forms.Field]], *, nullable: bool,
                 total: int | None, attrs=None):  # fmt: skip
        super().__init__(attrs)
        self.fields = fields
        self.nullable = nullable
        self.total = total

    def value_from_datadict(self, data, files, name):
        value = {
            key: field.widget.value_from_datadict(data, files, f"{name}{SEP}{key}")
            for key, (_label, field) in self.fields.items()
        }
        if self.nullable:
            value[SEP + SET] = forms.CheckboxInput().value_from_datadict(
                data, files, f"{name}{SEP}{SET}"
            )
        return value

    def value_omitted_from_data(self, data, files, name):
        return False

    def render(self, name, value, attrs=None, renderer=None):
        raw = value if isinstance(value, dict) else {}
        switched_on = raw.get(SEP + SET, value is not None) if self.nullable else True
        rows = []
        for key, (label, field) in self.fields.items():
            sub = f"{name}{SEP}{key}"
            sub_value = field.prepare_value(raw.get(key, MISSING))
            if sub_value is MISSING:
                sub_value = None
            widget_html = field.widget.render(sub, sub_value, {"id": f"id_{sub}"}, renderer)
            rows.append((f"id_{sub}", label, widget_html))
        body = format_html_join(
            "", '<tr><th scope="row"><label for="{}">{}</label></th><td>{}</td></tr>', rows
        )
        foot = ""
        if self.total is not None:
            foot = format_html(
                '<tfoot><tr><th scope="row">{}</th><td><output data-total-output{}>{}'
                "</output> / {}</td></tr></tfoot>",
                _("Total"),
                "" if _sum(raw) == self.total else mark_safe(' class="off"'),
                _sum(raw),
                self.total,
            )
        table = format_html(
            '<table class="schema-object"{}><tbody>{}</tbody>{}</table>',
            format_html(' data-total="{}"', self.total) if self.total is not None else "",
            body,
            foot,
        )
        switch = ""
        if self.nullable:
            switch = format_html(
                '<p class="schema-switch"><label>{} {}</label></p>',
                forms.CheckboxInput().render(
                    f"{name}{SEP}{SET}", switched_on, {"id": f"id_{name}{SEP}{SET}"}
                ),
                _("Use these values (unticked: none, the game's default)"),
            )
        return format_html('<div class="schema-object-field">{}{}</div>', switch, table)

    def id_for_label(self, id_):
        return None  # the table labels each input itself


def _sum(raw: dict) -> int:
    """The total shown before the script runs (the script keeps it up to date)."""
    total = 0
    for key, value in raw.items():
        if key == SEP + SET:
            continue
        try:
            total += int(value)
        except (TypeError, ValueError):
            continue
    return total


class ObjectSchemaField(forms.Field):
    def __init__(self, schema: dict, *, nullable: bool = False, **kwargs):
        self.subfields = {
            key: (_title(sub, key), schema_field(sub, required=False, nested=True))
            for key, sub in schema["properties"].items()
        }
        self.nullable = nullable
        kwargs["required"] = False
        super().__init__(
            widget=ObjectWidget(self.subfields, nullable=nullable, total=schema.get("x-total")),
            **kwargs,
        )

    def to_python(self, value):
        if not isinstance(value, dict):
            return MISSING
        if self.nullable and not value.get(SEP + SET):
            return None
        out = {}
        for key, (_label, field) in self.subfields.items():
            cleaned = field.clean(value.get(key))
            if cleaned is not MISSING:
                out[key] = cleaned
        return out

    def prepare_value(self, value):
        if value is MISSING:
            return None
        return value


def schema_field(schema: dict, *, required: bool = True, nested: bool = False, **kwargs):
    """The form field for one property schema."""
    if "enum" in schema:
        return EnumField(schema, blank=nested, required=required and not nested, **kwargs)
    kind = schema.get("type")
    if kind == "integer":
        return IntegerSchemaField(schema, required=required and not nested, **kwargs)
    if kind == "number":
        return NumberSchemaField(schema, required=required and not nested, **kwargs)
    if kind == "boolean":
        return BooleanSchemaField(schema, **kwargs)
    if kind == "string":
        return StringSchemaField(schema, required=required and not nested, **kwargs)
    if kind == "object" and isinstance(schema.get("properties"), dict):
        return ObjectSchemaField(schema, **kwargs)
    nullable = _nullable_object(schema)
    if nullable is not None:
        return ObjectSchemaField(nullable, nullable=True, **kwargs)
    return JSONSchemaField(schema, required=False, **kwargs)


def option_fields(engine: Engine) -> dict[str, forms.Field]:
    """{form field name: field} for the engine's options, in the schema's order."""
    fields = {}
    for key, sub in engine.option_schema().get("properties", {}).items():
        fields[field_name(key)] = schema_field(
            sub, label=_title(sub, key), help_text=sub.get("description", "")
        )
    return fields


def options_from_cleaned(engine: Engine, cleaned: dict) -> dict:
    """The options typed into the form (an option left empty is left out: its default)."""
    out = {}
    for key in engine.option_schema().get("properties", {}):
        value = cleaned.get(field_name(key), MISSING)
        if value is not MISSING:
            out[key] = value
    return out


def option_errors(engine: Engine, options: dict) -> tuple[dict, dict[str | None, str]]:
    """(the validated options, {option or None: message}): the schema's messages, one per
    option (its best match), then the engine's own checks, worded as validate_options
    words them (games.engines.schema: the option's label and the bound, translated)."""
    schema = engine.option_schema()
    merged = engine.default_options()
    merged.update(options)
    errors = schema_checks.best_error_per_property(schema, merged)
    if errors:
        return {}, {top: schema_checks.explain(e, schema) for top, e in errors.items()}
    try:
        return engine.validate_options(options), {}
    except InvalidOptions as exc:
        message = str(exc)
        head = exc.path[0] if exc.path else message.split(":", 1)[0].split("/", 1)[0]
        return {}, {head if head in schema.get("properties", {}) else None: message}


def initial_for(engine: Engine, options: dict | None) -> dict:
    """Form initial values for stored options (the defaults filled in)."""
    merged = engine.default_options()
    merged.update(options or {})
    return {
        field_name(key): merged[key]
        for key in engine.option_schema().get("properties", {})
        if key in merged
    }


def pretty_json(options: dict) -> str:
    text = json.dumps(options, indent=2, sort_keys=True, ensure_ascii=False)
    return format_html('<pre class="options-json">{}</pre>', text)
