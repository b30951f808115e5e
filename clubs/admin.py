"""Clubs in the admin: staff verify a club here (`rated`: the only place it is set) and see
its memberships. Founding, joining and roles go through the club pages and the API
(clubs.services.membership), where consent is asked."""

from django.contrib import admin
from django.db import models
from django.db.models import Count, Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, ClubEvent, ClubGuest, Membership, MembershipStatus, Season


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]
    fields = ["user", "role", "status", "created_at", "joined_at"]
    readonly_fields = ["created_at"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "city", "visibility", "rated", "member_count", "created_at"]
    list_filter = ["rated", "visibility"]
    search_fields = ["name", "slug", "city", "memberships__user__username"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]
    # A logo address typed without a scheme is an https one (Django 6's default).
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}

    def get_queryset(self, request):
        active = Count("memberships", filter=Q(memberships__status=MembershipStatus.ACTIVE))
        return super().get_queryset(request).annotate(active_members=active)

    @admin.display(description=_("members"), ordering="active_members")
    def member_count(self, obj) -> int:
        return obj.active_members

    def get_search_results(self, request, queryset, search_term):
        found, _may_have_duplicates = super().get_search_results(request, queryset, search_term)
        return found.distinct(), False  # a member's name matches each club once


class ClubEventInline(admin.TabularInline):
    model = ClubEvent
    extra = 0
    raw_id_fields = ["tournament"]
    fields = ["tournament", "members_only", "season"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on", "rule"]
    list_filter = ["rule"]
    search_fields = ["name", "club__name"]
    raw_id_fields = ["club"]
    inlines = [ClubEventInline]


@admin.register(ClubGuest)
class ClubGuestAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "created_at"]
    search_fields = ["player__name", "player__display_name", "club__name"]
    raw_id_fields = ["club", "player"]
