from django.contrib import admin

from games.models import Player


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
