"""The clubs API, under /api/clubs/ (config/urls.py); a club's seasons from
clubs.api.season_urls (the seasons part's), under /api/clubs/{slug}/."""

from django.urls import include, path, re_path

from clubs.api import views

MEMBERSHIP = r"members/(?P<membership_id>[0-9]{1,18})"  # a membership's id, bounded

urlpatterns = [
    path("", views.ClubListView.as_view(), name="api-club-list"),
    path("<slug:slug>/", views.ClubDetailView.as_view(), name="api-club-detail"),
    path("<slug:slug>/join/", views.JoinView.as_view(), name="api-club-join"),
    path("<slug:slug>/invitations/", views.InviteView.as_view(), name="api-club-invite"),
    path("<slug:slug>/members/", views.MembersView.as_view(), name="api-club-members"),
    path("<slug:slug>/members/me/", views.LeaveView.as_view(), name="api-club-leave"),
    re_path(
        rf"^(?P<slug>[-a-zA-Z0-9_]+)/{MEMBERSHIP}/accept/$",
        views.AcceptView.as_view(),
        name="api-club-accept",
    ),  # fmt: skip
    re_path(
        rf"^(?P<slug>[-a-zA-Z0-9_]+)/{MEMBERSHIP}/role/$",
        views.RoleView.as_view(),
        name="api-club-role",
    ),  # fmt: skip
    path("<slug:slug>/", include("clubs.api.season_urls")),
]
