from django.contrib import admin

from notifications.models import Notification, NotificationPreference, PushSubscription


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


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["user", "user_agent", "created_at", "last_error"]
    search_fields = ["user__username", "endpoint"]
    raw_id_fields = ["user"]
    readonly_fields = ["endpoint", "p256dh", "auth", "user_agent", "created_at", "last_error"]
