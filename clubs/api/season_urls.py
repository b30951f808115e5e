"""The season API's routes, included by clubs/api/urls.py under "api/clubs/<slug:slug>/"."""

from django.urls import path

from clubs.api import seasons

urlpatterns = [
    path("seasons/", seasons.SeasonListView.as_view(), name="api-club-seasons"),
    path(
        "seasons/<int:season_id>/standings/",
        seasons.SeasonStandingsView.as_view(),
        name="api-club-season-standings",
    ),  # fmt: skip
]
