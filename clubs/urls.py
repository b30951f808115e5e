"""The club pages: /clubs/ (the directory), /clubs/new/, and a club's routes under
"<slug>/" (its seasons' pages from clubs.season_urls, the seasons part's)."""

from django.urls import include, path, re_path

from clubs import views

# "<slug>/members/<id>/...": what the owner and organisers do to one membership.
membership_urls = [
    path("accept/", views.accept, name="club-accept"),
    path("decline/", views.decline, name="club-decline"),
    path("role/", views.set_role, name="club-role"),
    path("remove/", views.remove, name="club-remove"),
    path("hand-over/", views.hand_over, name="club-hand-over"),
]

club_urls = [
    path("", views.detail, name="club-detail"),
    path("edit/", views.edit, name="club-edit"),
    path("join/", views.join, name="club-join"),
    path("leave/", views.leave, name="club-leave"),
    path("invite/", views.invite, name="club-invite"),
    path("members/", views.members_page, name="club-members"),
    re_path(r"^members/(?P<membership_id>[0-9]{1,18})/", include(membership_urls)),
    path("", include("clubs.season_urls")),
]

urlpatterns = [
    path("", views.directory, name="club-directory"),
    path("new/", views.found, name="club-found"),
    path("<slug:slug>/", include(club_urls)),
]
