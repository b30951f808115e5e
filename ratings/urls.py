from django.urls import path

from ratings import views

urlpatterns = [
    path("ratings/<slug:game>/", views.leaderboard, name="leaderboard"),
    path("ratings/<slug:game>/rows/", views.leaderboard_rows, name="leaderboard-rows"),
    path("players/<slug:name>/", views.player_page, name="player-page"),
]
