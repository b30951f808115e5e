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


class LeaderboardFilterSerializer(serializers.Serializer):
    """The query: a junk value is a 400 with the choices, not a silent default."""

    system = serializers.ChoiceField(choices=System.values, default=System.ELO)
    kind = serializers.ChoiceField(
        choices=selectors.LEADERBOARD_KINDS, default=selectors.HUMANS,
        help_text="humans (the default), bots (built-in bots and bot programs) or all.",
    )  # fmt: skip


class LeaderboardView(APIView):
    """The leaderboard of a game's default rating pool: people by default, bots with
    kind=bots, everyone with kind=all."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("system", str, enum=System.values, default=System.ELO),
            OpenApiParameter("kind", str, enum=list(selectors.LEADERBOARD_KINDS),
                             default=selectors.HUMANS,
                             description="humans (default), bots (built-in and programs), all"),
        ],
        responses=LeaderboardRowSerializer(many=True),
    )  # fmt: skip
    def get(self, request, game: str):
        if game not in ENGINES:
            raise Http404("unknown game")
        query = LeaderboardFilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        pool = services.default_pool(game)
        return Response(selectors.leaderboard(pool, **query.validated_data))


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
