from django.urls import path

from ratings.api.views import LeaderboardView, PlayerRatingsView

urlpatterns = [
    path("ratings/<slug:game>/", LeaderboardView.as_view(), name="api-leaderboard"),
    path("players/<int:pk>/ratings/", PlayerRatingsView.as_view(), name="api-player-ratings"),
]
