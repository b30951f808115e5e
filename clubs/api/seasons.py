"""The seasons API: GET/POST /api/clubs/{slug}/seasons/ (a club's seasons; a new one by its
owner or organisers) and GET /api/clubs/{slug}/seasons/{id}/standings/. A members-only
club's seasons are for its members (404 to others). Bad input is a 400 naming the field, a
caller who may not a 403; nothing changes on either (clubs.services.seasons)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import season_selectors
from clubs.models import Season
from clubs.services import seasons as season_services
from core import throttling
from games.api.inputs import InputSerializer
from games.api.match_serializers import ErrorSerializer
from games.engines.registry import ENGINES

ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}


class SeasonOut(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = ["id", "name", "starts_on", "ends_on", "games", "rule", "best_n",
                  "place_points", "created_at"]  # fmt: skip
        read_only_fields = fields


class SeasonIn(InputSerializer):
    name = serializers.CharField(max_length=120)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    games = serializers.ListField(
        child=serializers.ChoiceField(choices=sorted(ENGINES)), required=False, max_length=20,
        help_text="Game slugs; empty or absent: every game.",
    )  # fmt: skip
    rule = serializers.ChoiceField(choices=Season.Rule.choices, required=False,
                                   help_text="sum, best (with best_n) or places.")  # fmt: skip
    best_n = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                      max_value=season_services.MAX_BEST_N)  # fmt: skip
    place_points = serializers.ListField(
        child=serializers.FloatField(min_value=0, max_value=season_services.MAX_POINTS),
        required=False, max_length=season_services.MAX_PLACE_POINTS,
        help_text="Points for 1st, 2nd, ... (rule places); absent: Formula 1's 25, 18, 15, ...",
    )  # fmt: skip


class StandingRowOut(serializers.Serializer):
    place = serializers.IntegerField(help_text="Shared by players level on every tie-break.")
    player = serializers.CharField(help_text="The player's handle.")
    name = serializers.CharField()
    guest = serializers.BooleanField()
    events = serializers.IntegerField(help_text="Events played in the season.")
    counted = serializers.IntegerField(help_text="Events counted in the score.")
    score = serializers.FloatField()
    wins = serializers.IntegerField(help_text="Events won.")
    head_to_head = serializers.FloatField()
    rating = serializers.FloatField(allow_null=True)
    provisional = serializers.BooleanField(help_text="A running event counts in the score.")


class StandingsOut(serializers.Serializer):
    season = SeasonOut()
    rule = serializers.CharField(help_text="The rule in words, in the reader's language.")
    provisional = serializers.BooleanField()
    rows = StandingRowOut(many=True)


class SeasonListView(throttling.WriteThrottleMixin, APIView):
    """GET: the club's seasons (the current first). POST: a new season (owner, organisers)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    throttle_scopes = {"post": "tournament_manage"}

    @extend_schema(responses={200: SeasonOut(many=True), 404: ErrorSerializer})
    def get(self, request, slug: str):
        club = season_selectors.visible_club(slug, request.user)
        return Response(SeasonOut(season_selectors.club_seasons(club), many=True).data)

    @extend_schema(request=SeasonIn, responses={201: SeasonOut, **ERRORS})
    def post(self, request, slug: str):
        club = season_selectors.visible_club(slug, request.user)
        if not season_selectors.may_run_seasons(club, request.user):
            raise PermissionDenied(gettext("Only the club's owner and organisers can do that."))
        payload = SeasonIn(data=request.data)
        payload.is_valid(raise_exception=True)
        season = season_services.create_season(club=club, by=request.user, **payload.validated_data)
        return Response(SeasonOut(season).data, status=status.HTTP_201_CREATED)


class SeasonStandingsView(APIView):
    """GET: the season's standings, best first."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: StandingsOut, 404: ErrorSerializer})
    def get(self, request, slug: str, season_id: int):
        season = season_selectors.visible_season(slug, season_id, request.user)
        table = season_selectors.standings(season)
        rows = [
            {"place": r["rank"], "player": r["handle"], "name": r["name"], "guest": r["guest"],
             "events": r["events"], "counted": r["counted"], "score": r["score"],
             "wins": r["wins"], "head_to_head": r["head_to_head"], "rating": r["rating"],
             "provisional": r["provisional"]}
            for r in table.rows
        ]  # fmt: skip
        return Response(StandingsOut({
            "season": season, "rule": season_selectors.rule_text(season),
            "provisional": table.provisional, "rows": rows,
        }).data)  # fmt: skip
