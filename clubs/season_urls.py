"""The season pages' routes, included by clubs/urls.py under "clubs/<slug>/"."""

from django.urls import path

from clubs import season_views as views

urlpatterns = [
    path("seasons/new/", views.season_new, name="club-season-new"),
    path("seasons/<int:season_id>/", views.season_detail, name="club-season"),
    path("seasons/<int:season_id>/edit/", views.season_edit, name="club-season-edit"),
    path("seasons/<int:season_id>/events/", views.season_events, name="club-season-events"),
    path("seasons/<int:season_id>/standings.csv", views.season_csv, name="club-season-csv"),
    path("seasons/<int:season_id>/standings.xlsx", views.season_xlsx, name="club-season-xlsx"),
    path("seasons/<int:season_id>/screen/", views.season_screen, name="club-season-screen"),
    path(
        "seasons/<int:season_id>/players/<int:player_id>/",
        views.season_player,
        name="club-season-player",
    ),  # fmt: skip
]
