from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from core.live.views import no_push_here
from core.views import LoginView, ThrottledAdminAuthenticationForm
from notifications.push_views import service_worker
from operations.views import operations_page

# The admin speaks of the club, not of Django (in the reader's language).
admin.site.site_header = _("Caravan Club administration")
admin.site.site_title = _("Caravan Club admin")
admin.site.index_title = _("Games, players, tournaments and ratings")
# Wrong passwords at /admin/login/ count as at /accounts/login/ (core.throttling).
admin.site.login_form = ThrottledAdminAuthenticationForm

# An uncaught database error (the database down) answers the 503 page, others the 500.
handler500 = "core.unavailable.server_error"

urlpatterns = [
    # Before the admin's own URLs, which would answer 404 for it; staff only.
    path("admin/operations/", admin.site.admin_view(operations_page), name="admin-operations"),
    path("admin/", admin.site.urls),
    path("accounts/login/", LoginView.as_view(), name="login"),  # before auth.urls: rate-limited
    path("accounts/", include("core.account_urls")),  # before auth.urls: our reset, e-mail links
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file: no inline script for the CSP.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("api/", include("games.api.urls")),
    path("api/", include("tournaments.api.urls")),
    path("api/clubs/", include("clubs.api.urls")),
    path("api/", include("ratings.api.urls")),
    path("api/", include("notifications.api_urls")),
    path("api/", include("core.api")),  # me/ (delete the account), me/export/, me/tokens/
    path("events/", no_push_here, name="live-events"),  # served by config/asgi.py
    path("i18n/", include("django.conf.urls.i18n")),  # set_language for the switcher
    path("tournaments/", include("tournaments.urls")),
    path("clubs/", include("clubs.urls")),
    path("notifications/", include("notifications.urls")),
    # The Web Push service worker, at the root: its scope is the whole site.
    path("push-sw.js", service_worker, name="push-service-worker"),
    path("", include("ratings.urls")),
    path("", include("core.urls")),
    path("", include("games.urls")),
]
