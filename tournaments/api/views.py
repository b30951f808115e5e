from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.generics import get_object_or_404
from rest_framework.response import Response

from core import throttling
from core.permissions import may_manage_tournament
from games.api.invitations import InvitationSerializer
from games.api.match_serializers import ErrorSerializer
from games.models import Invitation
from tournaments import forecast, selectors, services
from tournaments.api.entrants import EntrantActions
from tournaments.api.entrants import add_guest as api_add_guest
from tournaments.api.results import ResultActionsMixin, ResultBody
from tournaments.api.rounds import THROTTLE_SCOPES as ROUND_THROTTLE_SCOPES
from tournaments.api.rounds import RoundActions
from tournaments.api.serializers import (
    EntryOut,
    EntryRequestSerializer,
    ForecastOut,
    PlannedStartIn,
    ResultOut,
    RoundOut,
    StandingOut,
    TournamentCreateSerializer,
    TournamentSerializer,
    TournamentUpdateSerializer,
)
from tournaments.errors import NoForecast
from tournaments.models import Tournament
from tournaments.services import editing, lifecycle, scheduling


def _organiser_only(request, tournament: Tournament) -> None:
    if not may_manage_tournament(request.user, tournament):
        raise PermissionDenied(gettext("Only the organiser can do that."))


class TournamentViewSet(RoundActions, EntrantActions, ResultActionsMixin,
                        throttling.WriteThrottleMixin,
                        mixins.ListModelMixin,
                        mixins.RetrieveModelMixin, viewsets.GenericViewSet):  # fmt: skip
    serializer_class = TournamentSerializer
    throttle_scopes = {
        "create": "tournament_create",
        "entries": "tournament_entries",
        "start": "tournament_manage",
        "planned_start": "tournament_manage",
        "partial_update": "tournament_manage",
        "undo_cancel": "tournament_manage",
        "result": "tournament_results",
        **dict.fromkeys(
            ("join", "leave", "check_in", "check_in_many", "link"), "tournament_entries"
        ),
        **dict.fromkeys(("pause", "resume", "cancel"), "tournament_manage"),
        "report": "tournament_results",
        "report_confirm": "tournament_results",
        **ROUND_THROTTLE_SCOPES,
    }
    queryset = Tournament.objects.select_related("club_event__club").prefetch_related(
        "co_organisers"
    )
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    lookup_value_regex = r"[0-9]{1,18}"

    @extend_schema(request=TournamentCreateSerializer, responses={201: TournamentSerializer})
    def create(self, request):
        payload = TournamentCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        t = services.create_tournament(organiser=request.user, **payload.validated_data)
        return Response(TournamentSerializer(t).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=TournamentUpdateSerializer,
                   responses={200: TournamentSerializer, 400: ErrorSerializer})  # fmt: skip
    def partial_update(self, request, pk=None):
        """Edit (organiser): before the start most settings; after it the name, venue,
        description, auto_advance, time_zone and Swiss rounds (not below those paired).
        Anything else is a 400 with the reason, and nothing changes."""
        t = self.get_object()
        _organiser_only(request, t)
        payload = TournamentUpdateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        t = editing.update_tournament(tournament=t, by=request.user, **payload.validated_data)
        return Response(TournamentSerializer(t).data)

    @extend_schema(request=None, responses=TournamentSerializer)
    @action(detail=True, methods=["post"], url_path="undo-cancel",
            permission_classes=[permissions.IsAuthenticated])  # fmt: skip
    def undo_cancel(self, request, pk=None):
        """Within 10 minutes of a cancel that aborted no match: the status before it."""
        t = lifecycle.undo_cancel(tournament=self.get_object(), by=request.user)
        return Response(TournamentSerializer(t).data)

    @extend_schema(request=EntryRequestSerializer, responses={201: EntryOut, 204: None})
    @action(
        detail=True, methods=["post", "delete"], permission_classes=[permissions.IsAuthenticated]
    )
    def entries(self, request, pk=None):
        """Join (POST), or withdraw (DELETE). Organisers enter bots directly; another
        person (or his external bot) gets an invitation instead (202)."""
        t = self.get_object()
        body = request.data
        if request.method == "POST" and isinstance(body, dict) and "guest" in body:  # a guest
            return api_add_guest(request, t)
        payload = EntryRequestSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        player = selectors.player_to_enter(t, request.user, payload.validated_data.get("player"))
        if request.method == "DELETE":
            services.withdraw_entry(entry=get_object_or_404(t.entries, player=player))
            return Response(status=status.HTTP_204_NO_CONTENT)
        entry = services.enter_player(
            tournament=t, player=player, by=request.user, seed=payload.validated_data.get("seed")
        )
        if isinstance(entry, Invitation):  # another person is entered only if he accepts
            return Response({"invitation": InvitationSerializer(entry).data},
                            status=status.HTTP_202_ACCEPTED)  # fmt: skip
        return Response({"entry": entry.pk, "player": player.name, "name": str(player),
                         "joined_round": entry.joined_round,
                         "waitlisted": entry.waitlisted_at is not None},
                        status=status.HTTP_201_CREATED)  # fmt: skip

    @extend_schema(request=None, responses=TournamentSerializer)
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def start(self, request, pk=None):
        t = self.get_object()
        _organiser_only(request, t)
        services.start_tournament(tournament=t)
        t.refresh_from_db()
        return Response(TournamentSerializer(t).data)

    @extend_schema(request=PlannedStartIn, responses=TournamentSerializer)
    @action(detail=True, methods=["post"], url_path="planned-start",
            permission_classes=[permissions.IsAuthenticated])  # fmt: skip
    def planned_start(self, request, pk=None):
        """Set, move or clear the planned start and auto-start before the start (organiser)."""
        t = self.get_object()
        _organiser_only(request, t)
        payload = PlannedStartIn(data=request.data)
        payload.is_valid(raise_exception=True)
        t = scheduling.plan_start(tournament=t, by=request.user, **payload.validated_data)
        return Response(TournamentSerializer(t).data)

    @extend_schema(methods=["GET"], responses=RoundOut(many=True))
    @extend_schema(methods=["POST"], request=None, responses={201: RoundOut})
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def rounds(self, request, pk=None):
        """GET: every round. POST: pair the next round (organiser; tournaments.api.rounds)."""
        if request.method == "POST":
            return self.pair_next(request)
        return Response(RoundOut(selectors.rounds_overview(self.get_object()), many=True).data)

    @extend_schema(responses={200: StandingOut(many=True), 409: ErrorSerializer})
    @action(detail=True, pagination_class=None)
    def standings(self, request, pk=None):
        """The table; 409 with the reason if the stored settings or rounds are unusable."""
        t = self.get_object()
        selectors.require_usable(t)
        return Response(StandingOut(selectors.standings_out(t), many=True).data)

    @extend_schema(responses={200: ForecastOut(many=True), 409: ErrorSerializer})
    @action(detail=True, pagination_class=None)
    def forecast(self, request, pk=None):
        """A league's, round robin's or Swiss's chances: each entrant's probability of each
        final place (Monte Carlo over the remaining rounds, table outcomes from the Elo
        ratings; fixed seed, cached per results version) and whether it can still win.
        Best first by the standings. 409 for other formats, or when not in progress."""
        t = self.get_object()
        selectors.require_usable(t)
        rows = forecast.for_tournament(t)
        if rows is None:
            raise NoForecast()
        return Response(ForecastOut(rows, many=True).data)

    @extend_schema(
        methods=["POST"],
        request=ResultBody,
        responses={201: ResultOut, 400: None, 403: ErrorSerializer, 409: ErrorSerializer},
    )
    @extend_schema(
        methods=["PUT"],
        request=ResultBody,
        responses={200: ResultOut, 400: None, 403: ErrorSerializer},
    )
    @extend_schema(
        methods=["DELETE"], request=None,
        responses={204: None, 400: ErrorSerializer, 403: ErrorSerializer},
    )  # fmt: skip
    @action(detail=True, methods=["post", "put", "delete"],
            url_path=r"tables/(?P<table_id>[0-9]{1,18})/result",
            permission_classes=[permissions.IsAuthenticated])  # fmt: skip
    def result(self, request, pk=None, table_id=None):
        """Over-the-board table: POST enters its result (scores per seat + the game's
        tie-break), PUT enters or corrects it (logged; standings and ratings follow), DELETE
        deletes it (typed on the wrong table; refused once a later round is paired)."""
        if request.method == "DELETE":
            return self.delete_result(request, table_id)
        if request.method == "PUT":
            return self.put_result(request, table_id)
        return self.post_result(request, table_id)
