from django.urls import path

from notifications.api import MarkReadView, MyNotificationsView

urlpatterns = [
    path("me/notifications/", MyNotificationsView.as_view(), name="api-my-notifications"),
    path("me/notifications/read/", MarkReadView.as_view(), name="api-notifications-read"),
]
