import zoneinfo

from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from core import timezones
from core.admin_mixins import ReadOnlyAdmin
from tournaments import services, zones
from tournaments.models import (
    Bye,
    Entry,
    ForbiddenPairing,
    PairingChange,
    ResultChange,
    ResultReport,
    Round,
    Table,
    TableSeat,
    Tournament,
)
from tournaments.services import versions


class ZonedTimes:
    """An admin form of a tournament's rows: its times shown and typed in the tournament's
    zone (tournaments.zones), which each time field's help text names. The change page
    runs, and renders, in that zone (``zone_for``)."""

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if isinstance(db_field, models.DateTimeField) and field is not None:
            named = gettext("In the tournament's time zone: %(zone)s.") % {
                "zone": timezone.get_current_timezone_name()
            }
            field.help_text = f"{field.help_text} {named}".strip()
        return field


class InTournamentZone(ZonedTimes):
    def zone_for(self, request, object_id) -> str:
        raise NotImplementedError

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        with timezone.override(zoneinfo.ZoneInfo(self.zone_for(request, object_id))):
            response = super().changeform_view(request, object_id, form_url, extra_context)
            if hasattr(response, "render") and not response.is_rendered:
                response.render()  # a TemplateResponse renders lazily: here, in the zone
        return response


class EntryInline(ZonedTimes, admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ["player"]


def _run(modeladmin, request, queryset, action, done: str):
    for obj in queryset:
        try:
            action(obj)
        except ValidationError as exc:
            modeladmin.message_user(request, f"{obj}: {' '.join(exc.messages)}", messages.ERROR)
        else:
            modeladmin.message_user(request, f"{obj}: {done}")


@admin.register(Tournament)
class TournamentAdmin(InTournamentZone, admin.ModelAdmin):
    list_display = [
        "name",
        "game",
        "format",
        "status",
        "current_round",
        "over_the_board",
        "organiser",
        "created_at",
    ]
    list_filter = ["game", "format", "status", "over_the_board"]
    search_fields = ["name", "organiser__username"]
    inlines = [EntryInline]
    raw_id_fields = ["organiser", "co_organisers", "variant"]
    readonly_fields = ["current_round", "results_version", "started_at", "finished_at"]
    actions = ["start", "pair_next_round"]

    def zone_for(self, request, object_id) -> str:
        # The zone sent with the form (times typed with it are in it), else the stored one.
        if object_id is not None and str(object_id).isdigit():
            fallback = zones.zone_of_pk(int(object_id)).key
        else:
            fallback = settings.TIME_ZONE
        return zones.chosen_zone(request.POST.get("time_zone"), fallback)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        may = request.user.has_perm(services.RATED_PERMISSION)

        class RatedChecked(form):
            """The admin obeys the service's rule: typed-in results are rated only for
            holders of run_rated_events."""

            def clean(self):
                data = super().clean()
                touched = {"rated", "over_the_board"} & set(self.changed_data)
                if touched and data.get("rated") and data.get("over_the_board") and not may:
                    self.add_error("rated", gettext("Over-the-board events are rated only for "
                                   "organisers with the 'run rated events' permission."))  # fmt: skip
                return data

            def clean_time_zone(self):
                # A known zone or blank (the site's), as the pages and the API take it.
                return timezones.check_zone((self.cleaned_data.get("time_zone") or "").strip())

        return RatedChecked

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # A status typed in here moves the live version: its pages' streams look again.
        versions.announce(form.instance.pk)

    @admin.action(description=_("Start the selected tournaments"), permissions=["change"])
    def start(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            lambda t: services.start_tournament(tournament=t),
            gettext("started"),
        )

    @admin.action(description=_("Pair and start the next round"), permissions=["change"])
    def pair_next_round(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            lambda t: services.advance_tournament(tournament_id=t.pk),
            gettext("advanced"),
        )


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "seed", "rating", "joined_round", "withdrawn_after"]
    list_filter = ["tournament"]
    search_fields = ["player__name", "tournament__name"]
    raw_id_fields = ["player", "tournament"]


@admin.register(ForbiddenPairing)
class ForbiddenPairingAdmin(admin.ModelAdmin):
    list_display = ["tournament", "first", "second"]
    raw_id_fields = ["tournament", "first", "second"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    raw_id_fields = ["match"]
    readonly_fields = ["result", "finished_at"]


@admin.register(Round)
class RoundAdmin(InTournamentZone, admin.ModelAdmin):
    list_display = [
        "__str__",
        "tournament",
        "number",
        "status",
        "deadline",
        "started_at",
        "finished_at",
    ]
    list_filter = ["status", "tournament"]
    search_fields = ["tournament__name", "label"]
    inlines = [TableInline]
    actions = ["start_rounds", "repair_rounds"]

    def zone_for(self, request, object_id) -> str:
        """The round's tournament's zone (the one the form names, on a new round)."""
        pk = request.POST.get("tournament", "")
        if not pk.isdigit() and object_id is not None and str(object_id).isdigit():
            row = Round.objects.filter(pk=int(object_id)).values_list("tournament_id", flat=True)
            pk = str(row.first() or "")
        return zones.zone_of_pk(int(pk)).key if pk.isdigit() else settings.TIME_ZONE

    @admin.action(description=_("Start the selected rounds"), permissions=["change"])
    def start_rounds(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            lambda r: services.start_round(round_=r),
            pgettext("round", "started"),
        )

    @admin.action(
        description=_("Pair the selected rounds again (before they start)"), permissions=["change"]
    )
    def repair_rounds(self, request, queryset):
        _run(
            self,
            request,
            queryset,
            lambda r: services.repair_round(round_=r, by=request.user),
            pgettext("round", "paired again"),
        )


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    raw_id_fields = ["entry"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round", "bracket", "status", "match", "finished_at"]
    list_filter = ["status", "bracket"]
    search_fields = ["round__tournament__name"]
    raw_id_fields = ["round", "match"]
    inlines = [TableSeatInline]


@admin.register(TableSeat)
class TableSeatAdmin(admin.ModelAdmin):
    list_display = ["table", "index", "entry"]
    raw_id_fields = ["table", "entry"]
    search_fields = ["entry__player__name"]


@admin.register(Bye)
class ByeAdmin(admin.ModelAdmin):
    list_display = ["round", "entry"]
    raw_id_fields = ["round", "entry"]
    search_fields = ["entry__player__name"]


# The result log (read-only: never edited) and players' reports.
@admin.register(ResultChange)
class ResultChangeAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ["table", "kind", "changed_by", "changed_at"]
    list_filter = ["kind"]
    readonly_fields = ["table", "kind", "changed_by", "changed_at", "before", "after", "report"]


# The log of a paired round's overrides (tournaments.services.overrides; read-only).
@admin.register(PairingChange)
class PairingChangeAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ["round", "kind", "changed_by", "changed_at"]
    list_filter = ["kind"]
    readonly_fields = ["round", "kind", "changed_by", "changed_at", "before", "after"]


@admin.register(ResultReport)
class ResultReportAdmin(admin.ModelAdmin):
    list_display = ["table", "reported_by", "status", "created_at"]
    list_filter = ["status"]
    raw_id_fields = ["table", "reported_by", "decided_by"]
