from django.urls import path

from notifications import views

urlpatterns = [
    path("", views.notification_list, name="notifications"),
    path("read/", views.mark_all_read, name="notifications-read"),
    path("<int:pk>/open/", views.open_notice, name="notification-open"),
    path("preferences/", views.preferences, name="notification-preferences"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="notification-unsubscribe"),
]
