from django.urls import include, path
from rest_framework.routers import DefaultRouter

from games.api.invitations import AcceptInvitationView, DeclineInvitationView, MyInvitationsView
from games.api.match_views import MatchViewSet, MyTurnsStreamView, MyTurnsView
from games.api.views import GameListView, MySettingsView, PlayerViewSet

router = DefaultRouter()
router.register("players", PlayerViewSet, basename="player")
router.register("matches", MatchViewSet, basename="match")

urlpatterns = [
    path("games/", GameListView.as_view(), name="api-games"),
    path("me/turns/", MyTurnsView.as_view(), name="api-my-turns"),
    path("me/turns/stream/", MyTurnsStreamView.as_view(), name="api-my-turns-stream"),
    path("me/invitations/", MyInvitationsView.as_view(), name="api-my-invitations"),
    path("me/settings/", MySettingsView.as_view(), name="api-my-settings"),
    path(
        "invitations/<int:pk>/accept/", AcceptInvitationView.as_view(), name="api-invitation-accept"
    ),
    path(
        "invitations/<int:pk>/decline/",
        DeclineInvitationView.as_view(),
        name="api-invitation-decline",
    ),
    path("", include(router.urls)),
]
