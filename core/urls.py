from django.urls import path

from core import data_views, token_views, views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("settings/", views.account_settings, name="account-settings"),
    path("health/", views.health, name="health"),
    # A person's own data: her calendar feed, the download, deleting the account.
    path("calendar/<str:token>.ics", data_views.feed, name="calendar-feed"),
    path("settings/calendar/", data_views.calendar_create, name="calendar-create"),
    path("settings/calendar/new/", data_views.calendar_rotate, name="calendar-rotate"),
    path("settings/my-data.json", data_views.export_download, name="my-data-export"),
    path("settings/delete/", data_views.delete_account, name="account-delete"),
    # API tokens (core.tokens): make one (its key shown once), revoke one after a question.
    path("settings/tokens/", token_views.token_create, name="api-token-create"),
    path(
        "settings/tokens/<int:token_id>/revoke/", token_views.token_revoke, name="api-token-revoke"
    ),
    path("header/counts/", views.header_counts, name="header-counts"),
    path("favicon.ico", views.favicon, name="favicon"),
]
