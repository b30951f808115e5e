from django.urls import include, path
from rest_framework.routers import DefaultRouter

from games.api.views import GameListView, PlayerViewSet

router = DefaultRouter()
router.register("players", PlayerViewSet, basename="player")

urlpatterns = [
    path("games/", GameListView.as_view(), name="api-games"),
    path("", include(router.urls)),
]
