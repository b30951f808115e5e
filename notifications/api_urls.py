from django.urls import path

from notifications.api import MarkReadView, MyNotificationsView
from notifications.push_views import MyPushSubscriptionView

urlpatterns = [
    path("me/notifications/", MyNotificationsView.as_view(), name="api-my-notifications"),
    path("me/notifications/read/", MarkReadView.as_view(), name="api-notifications-read"),
    path("me/push/", MyPushSubscriptionView.as_view(), name="api-my-push"),
]
