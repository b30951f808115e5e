from rest_framework.routers import DefaultRouter

from tournaments.api.views import TournamentViewSet

router = DefaultRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")
urlpatterns = router.urls
