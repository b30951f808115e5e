from django.conf import settings
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from core import throttling, timezones
from games import selectors, services
from games.api.serializers import (
    ExternalBotCreatedSerializer,
    ExternalBotCreateSerializer,
    GameSerializer,
    MySettingsSerializer,
    PlayerSerializer,
)
from games.engines.registry import ENGINES
from games.models import PlayerKind


class GameListView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=GameSerializer(many=True))
    def get(self, request):
        data = [
            {
                "slug": e.slug,
                "title": gettext(e.title),  # Czech name under Accept-Language: cs
                "min_players": e.min_players,
                "max_players": e.max_players,
                "option_schema": e.option_schema(),
                "bots": e.bot_names(),
            }
            for e in sorted(ENGINES.values(), key=lambda e: e.slug)
        ]
        return Response(GameSerializer(data, many=True).data)


@extend_schema_view(
    list=extend_schema(parameters=[OpenApiParameter("kind", str, enum=PlayerKind.values)])
)
class PlayerViewSet(
    throttling.WriteThrottleMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = PlayerSerializer
    throttle_scopes = {"bots": "bot_register"}
    lookup_value_regex = r"[0-9]{1,18}"

    def get_queryset(self):
        kind = self.request.query_params.get("kind") if self.action == "list" else None
        if kind is not None and kind not in PlayerKind.values:
            raise ValidationError(
                {"kind": gettext("Use one of %(names)s.") % {"names": ", ".join(PlayerKind.values)}}
            )
        return selectors.player_list(kind=kind)

    @extend_schema(responses=PlayerSerializer)
    @action(detail=False, permission_classes=[permissions.IsAuthenticated])
    def me(self, request):
        player = selectors.player_for_user(request.user)
        if player is None:
            raise NotFound(gettext("This account has no player."))
        return Response(PlayerSerializer(player).data)

    @extend_schema(
        request=ExternalBotCreateSerializer, responses={201: ExternalBotCreatedSerializer}
    )
    @action(detail=False, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def bots(self, request):
        """Register an external bot program owned by the caller; returns its API token once."""
        payload = ExternalBotCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        player, token = services.create_external_bot(owner=request.user, **payload.validated_data)
        body = ExternalBotCreatedSerializer({"player": player, "token": token}).data
        return Response(body, status=status.HTTP_201_CREATED)


class MySettingsView(throttling.WriteThrottleMixin, APIView):
    """The caller's settings: the time zone of their pages (an unknown zone is a 400)."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_scopes = {"patch": "account_settings"}

    def _body(self, request) -> dict:
        return {"time_zone": timezones.saved_zone(request.user),
                "site_time_zone": settings.TIME_ZONE}  # fmt: skip

    @extend_schema(responses=MySettingsSerializer)
    def get(self, request):
        return Response(MySettingsSerializer(self._body(request)).data)

    @extend_schema(request=MySettingsSerializer, responses=MySettingsSerializer)
    def patch(self, request):
        payload = MySettingsSerializer(data=request.data, partial=True)
        payload.is_valid(raise_exception=True)
        if "time_zone" in payload.validated_data:
            services.set_time_zone(user=request.user, time_zone=payload.validated_data["time_zone"])
        return Response(MySettingsSerializer(self._body(request)).data)
