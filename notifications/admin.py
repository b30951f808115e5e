from django.contrib import admin

from notifications.models import Notification, NotificationPreference


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["recipient", "kind", "created_at", "read_at", "emailed_at"]
    list_filter = ["kind"]
    search_fields = ["recipient__username", "key"]
    raw_id_fields = ["recipient"]


@admin.register(NotificationPreference)
class NotificationPreferenceAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "delivery"]
    list_filter = ["kind", "delivery"]
    raw_id_fields = ["user"]
