from datetime import datetime

from django.contrib import admin
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from core import timezones
from core.admin_mixins import HiddenFieldsAdmin, ReadOnlyAdmin
from games import (
    admin_variants,  # noqa: F401 - registers the variant pages
    selectors,
)
from games.models import (
    DecisionSource,
    Invitation,
    Match,
    MatchLog,
    MatchStatus,
    Player,
    Seat,
    TimeControl,
)

HIDDEN_WHILE = (MatchStatus.PENDING, MatchStatus.RUNNING)


def _source_label(value: str) -> str:
    return DecisionSource(value).label if value in DecisionSource.values else value


def _local_time(iso: str) -> str:
    """When a decision was made, in the admin's time zone, to the second."""
    return timezone.localtime(datetime.fromisoformat(iso)).strftime("%Y-%m-%d %H:%M:%S")


def _decision_table(rows: list[dict]) -> str:
    """A match's decisions (selectors.match_log's rows) as a table on its admin page."""
    if not rows:
        return "-"
    names = [_("ply"), _("seat"), _("decision"), _("source"), _("time (ms)"), _("at")]
    head = format_html_join("", "<th>{}</th>", [(name,) for name in names])
    body = format_html_join(
        "",
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        '<td style="white-space:nowrap">{}</td></tr>',
        [(r["ply"], r["seat"] + 1, r["label"], _source_label(r["source"]), r["time_used_ms"],
          _local_time(r["at"])) for r in rows],
    )  # fmt: skip
    # Scrolls sideways in its own box on a phone rather than squeezing the times.
    return format_html('<div style="overflow-x:auto"><table><thead><tr>{}</tr></thead>'
                       "<tbody>{}</tbody></table></div>", head, body)  # fmt: skip


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "display_name",
        "kind",
        "bot_name",
        "game",
        "owner",
        "is_active",
        "created_at",
    ]
    list_filter = ["kind", "is_active", "bot_name", "game"]
    search_fields = ["name", "display_name", "user__username", "owner__username"]
    raw_id_fields = ["user", "owner"]
    readonly_fields = ["created_at"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if obj.user_id and "time_zone" in form.changed_data:
            timezones.forget_preference(obj.user_id)  # pages show the new zone at once


@admin.register(TimeControl)
class TimeControlAdmin(admin.ModelAdmin):
    """Bounds and messages are the model's (validators, clean, the constraint's message)."""

    list_display = ["name", "per_move_s", "initial_s", "increment_s"]
    search_fields = ["name"]


class SeatInline(admin.TabularInline):
    # Who sits where is fixed when the match is made (games.services.create_match).
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ["index", "player", "clock_ms", "forfeited", "timeouts", "score", "rank"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(HiddenFieldsAdmin, admin.ModelAdmin):
    list_display = [
        "id",
        "game",
        "status",
        "ply",
        "to_act",
        "rated",
        "timeout_policy",
        "created_at",
        "finished_at",
    ]
    list_filter = ["game", "status", "rated", "timeout_policy"]
    search_fields = ["id", "seats__player__name"]
    # Never filtered, searched or sorted on but by superusers (core.admin_mixins).
    hidden_fields = ("seed", "state", "log_record")
    date_hierarchy = "created_at"
    inlines = [SeatInline]
    readonly_fields = [
        "ply",
        "to_act",
        "deadline",
        "turn_started_at",
        "outcome",
        "started_at",
        "finished_at",
        "created_at",
    ]
    # What the engine state was built from cannot change under a running game: a match is
    # made by games.services.create_match (the lobby, the API, tournaments), never by hand.
    FIXED = ["game", "variant", "options", "seed", "status", "per_move_s", "initial_s",
             "increment_s", "rated", "created_by"]  # fmt: skip

    def has_add_permission(self, request):
        return False

    def add_view(self, request, form_url="", extra_context=None):
        return redirect("play")

    def _seed_hidden(self, request, obj) -> bool:
        # While a match runs its seed would rebuild every hidden hand; only superusers see it.
        return not request.user.is_superuser and (obj is None or obj.status in HIDDEN_WHILE)

    def get_readonly_fields(self, request, obj=None):
        fixed = [f for f in self.FIXED if f != "seed" or not self._seed_hidden(request, obj)]
        # A running match's decisions may hold secret choices (a chip laid face down):
        # only superusers see them before the end, as in the match's own log.
        log = "decisions" if request.user.is_superuser else "public_decisions"
        return [*super().get_readonly_fields(request, obj), *fixed, log]

    @admin.display(description=_("decisions"))
    def decisions(self, obj: Match) -> str:
        return _decision_table(selectors.match_log(obj, None, reveal=True))

    @admin.display(description=_("decisions"))
    def public_decisions(self, obj: Match) -> str:
        return _decision_table(selectors.match_log(obj, None))

    def get_exclude(self, request, obj=None):
        exclude = list(super().get_exclude(request, obj) or [])
        if self._seed_hidden(request, obj):
            exclude.append("seed")
        return exclude


@admin.register(MatchLog)
class MatchLogAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    """The record behind a match's decisions; it holds secret choices of running matches,
    so only superusers see it, and nobody edits it (the services append to it)."""

    list_display = ["match", "decisions"]
    raw_id_fields = ["match"]
    readonly_fields = ["match", "plies", "entries"]

    @admin.display(description=_("decisions"))
    def decisions(self, obj: MatchLog) -> int:
        return obj.plies

    def has_view_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_module_permission(self, request):
        return request.user.is_superuser


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = [
        "match",
        "index",
        "player",
        "clock_ms",
        "forfeited",
        "timeouts",
        "score",
        "rank",
    ]
    list_filter = ["forfeited"]
    search_fields = ["player__name", "match__id"]
    raw_id_fields = ["match", "player"]
    readonly_fields = ["match", "index", "player"]

    def has_add_permission(self, request):
        return False  # seats are made with their match (games.services.create_match)


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "player", "match", "target_kind", "target_id", "status",
                    "invited_by", "expires_at", "created_at"]  # fmt: skip
    list_filter = ["kind", "status", "target_kind"]
    search_fields = ["player__name", "invited_by__username", "match__id"]
    raw_id_fields = ["player", "match", "invited_by"]
    readonly_fields = ["created_at", "answered_at"]
