"""The admin's variant pages: choose the game, then one field per option of its schema
(games/variant_form.py), the options as JSON read-only, and a preview of the board."""

from __future__ import annotations

import secrets

from django import forms
from django.contrib import admin
from django.template.response import TemplateResponse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import variant_form
from games.engines.base import Engine, InvalidOptions
from games.engines.registry import ENGINES
from games.models import Variant

PREVIEW_SEED = 1  # the first preview of a variant; "shuffle again" draws a new seed
MAX_SEED = 2**48


class VariantFormBase(forms.ModelForm):
    """Name and description; subclasses add the option fields of one engine."""

    engine: Engine
    option_names: list[str] = []

    class Meta:
        model = Variant
        fields = ["name", "description"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.game = self.engine.slug
        for name, value in variant_form.initial_for(self.engine, self.instance.options).items():
            self.initial.setdefault(name, value)

    def clean(self):
        data = super().clean()
        if any(name in self.errors for name in self.option_names):
            return data
        options = variant_form.options_from_cleaned(self.engine, data)
        resolved, errors = variant_form.option_errors(self.engine, options)
        for key, message in errors.items():
            name = variant_form.field_name(key) if key else None
            self.add_error(name if name in self.fields else None, message)
        if not errors:
            self.instance.options = resolved
        return data


def variant_form_class(engine: Engine) -> type[VariantFormBase]:
    """A ModelForm for variants of `engine`: name, description and the option fields."""
    fields = variant_form.option_fields(engine)
    attrs = {**fields, "engine": engine, "option_names": list(fields)}
    return type(VariantFormBase)(f"VariantForm_{engine.slug}", (VariantFormBase,), attrs)


def _engine_for(request, obj: Variant | None) -> Engine | None:
    if obj is not None:
        return ENGINES.get(obj.game)
    return ENGINES.get(request.GET.get("game", ""))


def preview(engine: Engine, options: dict, seed: int) -> dict:
    """The board of a new game with `options` as a spectator sees it, and whether another
    seed deals a different one (then the page offers "shuffle again")."""

    def board(s: int) -> str:
        state = engine.new_game(players=engine.min_players, seed=s, options=options)
        return engine.render_svg(engine.observation(state, None))

    try:
        svg = board(seed)
        varies = board(seed + 1) != svg
    except (InvalidOptions, NotImplementedError) as exc:
        return {"error": str(exc) or gettext("This game draws no board.")}
    # The engine's own drawing (its names come from its data files, escaped there).
    return {"svg": mark_safe(svg), "varies": varies, "seed": seed}


@admin.register(Variant)
class VariantAdmin(admin.ModelAdmin):
    """No per-game code: the game's option schema makes the form."""

    list_display = ["name", "game", "options", "created_at"]
    list_filter = ["game"]
    search_fields = ["name", "description"]
    readonly_fields = ["game", "options_json", "created_at"]
    change_form_template = "admin/games/variant/change_form.html"

    class Media:
        css = {"all": ["css/variant-admin.css"]}

    @admin.display(description=_("Options as JSON"))
    def options_json(self, obj: Variant) -> str:
        return variant_form.pretty_json(obj.options or {})

    def get_form(self, request, obj=None, change=False, **kwargs):
        engine = _engine_for(request, obj)
        if engine is not None:
            kwargs["form"] = variant_form_class(engine)
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fieldsets(self, request, obj=None):
        engine = _engine_for(request, obj)
        names = list(variant_form.option_fields(engine)) if engine else []
        schema = engine.option_schema() if engine else {}
        none = "" if names else gettext("This game has no options: its variants differ by name.")
        described = " ".join(t for t in (none, schema.get("description", "")) if t)
        sets = [
            (None, {"fields": ["game", "name", "description"]}),
            (_("Options"), {"fields": names, "description": described}),
        ]
        if obj is not None:
            sets.append((_("Options as JSON (read-only)"), {"fields": ["options_json"]}))
        return sets

    def add_view(self, request, form_url="", extra_context=None):
        if request.GET.get("game") not in ENGINES:
            return self._choose_game(request)
        return super().add_view(request, form_url, extra_context)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, admin.utils.unquote(object_id))
        extra_context = dict(extra_context or {})
        engine = ENGINES.get(obj.game) if obj is not None else None
        if engine is not None:
            seed = _seed(request.GET.get("seed"))
            extra_context["preview"] = preview(engine, obj.options or {}, seed)
            extra_context["shuffle_seed"] = secrets.randbelow(MAX_SEED - 1) + 1
        return super().change_view(request, object_id, form_url, extra_context)

    def _choose_game(self, request):
        opts = self.model._meta
        context = {
            **self.admin_site.each_context(request),
            "opts": opts,
            "title": gettext("Add variant: choose the game"),
            "games": [(slug, gettext(e.title)) for slug, e in sorted(ENGINES.items())],
            "has_view_permission": self.has_view_permission(request),
        }
        if not self.has_add_permission(request):
            from django.core.exceptions import PermissionDenied

            raise PermissionDenied
        return TemplateResponse(request, "admin/games/variant/choose_game.html", context)


def _seed(raw: str | None) -> int:
    try:
        seed = int(raw or PREVIEW_SEED)
    except ValueError:
        return PREVIEW_SEED
    return seed if 0 <= seed < MAX_SEED else PREVIEW_SEED
