from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ratings import services
from ratings.models import AppliedMatch, Rating, RatingChange, RatingPool


@admin.register(RatingPool)
class RatingPoolAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "game",
        "variant",
        "is_default",
        "k",
        "provisional_k",
        "provisional_games",
        "start_rating",
        "rate_builtin_bots",
    ]
    list_filter = ["game", "is_default", "rate_builtin_bots"]
    search_fields = ["name"]
    actions = ["recompute"]

    def save_model(self, request, obj, form, change):
        # The flag goes through the service, which rebuilds the pool under the new rule.
        wanted = obj.rate_builtin_bots
        if change and "rate_builtin_bots" in form.changed_data:
            obj.rate_builtin_bots = not wanted
            super().save_model(request, obj, form, change)
            n = services.set_rate_builtin_bots(pool=obj, value=wanted)
            self.message_user(
                request,
                ngettext("%(pool)s: %(n)s match replayed", "%(pool)s: %(n)s matches replayed", n)
                % {"pool": obj, "n": n},
            )
            return
        super().save_model(request, obj, form, change)

    @admin.action(description=_("Recompute from the match history"), permissions=["change"])
    def recompute(self, request, queryset):
        for pool in queryset:
            n = services.recompute(pool=pool)
            self.message_user(
                request,
                ngettext("%(pool)s: %(n)s match replayed", "%(pool)s: %(n)s matches replayed", n)
                % {"pool": pool, "n": n},
            )


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["player", "pool", "system", "value", "games", "updated_at"]
    list_filter = ["pool", "system"]
    search_fields = ["player__name"]
    raw_id_fields = ["player"]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["player", "pool", "system", "match", "before", "after", "rank", "created_at"]
    list_filter = ["pool", "system"]
    search_fields = ["player__name", "match__id"]
    raw_id_fields = ["player", "match"]


@admin.register(AppliedMatch)
class AppliedMatchAdmin(admin.ModelAdmin):
    list_display = ["pool", "match", "sequence", "applied_at"]
    list_filter = ["pool"]
    search_fields = ["match__id"]
    raw_id_fields = ["match"]
