from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engines.registry import ENGINES
from games.models import Player
from ratings import selectors, services
from ratings.models import System


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    player_id = serializers.IntegerField()
    kind = serializers.CharField()
    rating = serializers.FloatField()
    games = serializers.IntegerField()
    trend = serializers.FloatField(help_text="Change over the last five games.")
    provisional = serializers.BooleanField()


class LeaderboardView(APIView):
    """The leaderboard of a game's default rating pool."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("system", str, enum=System.values), OpenApiParameter("kind", str, enum=["humans", "bots"])],
        responses=LeaderboardRowSerializer(many=True),
    )  # fmt: skip
    def get(self, request, game: str):
        if game not in ENGINES:
            raise Http404("unknown game")
        system = request.query_params.get("system", System.ELO)
        if system not in System.values:
            system = System.ELO
        pool = services.default_pool(game)
        return Response(
            selectors.leaderboard(pool, system=system, kind=request.query_params.get("kind"))
        )


class PlayerRatingsView(APIView):
    """A player's ratings in every pool, each with its history (before/after per match)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=inline_serializer("PlayerRatings", {
        "pool": serializers.CharField(), "game": serializers.CharField(), "system": serializers.CharField(),
        "rating": serializers.FloatField(), "games": serializers.IntegerField(),
        "history": serializers.ListField(child=serializers.DictField()),
    }, many=True))  # fmt: skip
    def get(self, request, pk: int):
        player = get_object_or_404(Player, pk=pk)
        return Response(selectors.player_ratings(player))
