"""API of the organiser's rounds (mixed into TournamentViewSet): pair the next round
(POST .../rounds/), start one, swap two entrants, unpair (DELETE .../rounds/{n}/), the
log of overrides, and withdrawing an entry by its id."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.generics import get_object_or_404
from rest_framework.response import Response

from core.permissions import may_manage_tournament
from games.api.inputs import InputSerializer
from games.api.match_serializers import ErrorSerializer
from tournaments.api.serializers import RoundOut
from tournaments.models import Entry, Round
from tournaments.services import entrants, overrides, rounds

ROUND = r"rounds/(?P<number>[0-9]{1,9})"

# Added to TournamentViewSet.throttle_scopes.
THROTTLE_SCOPES = dict.fromkeys(
    ("rounds", "round_detail", "round_start", "round_swap", "entry_withdraw"), "tournament_manage"
)


class SwapIn(InputSerializer):
    entries = serializers.ListField(
        child=serializers.IntegerField(min_value=1), min_length=2, max_length=2,
        help_text="Two entry ids of the round (a bye counts as a place).",
    )  # fmt: skip


class PairingChangeOut(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(source="round.number")
    kind = serializers.CharField(help_text="swap, move, unpair or repair")
    by = serializers.CharField(source="changed_by", allow_null=True)
    at = serializers.DateTimeField(source="changed_at")
    before = serializers.DictField(help_text='{"tables": [[entry ids by seat]], "byes": [ids]}')
    after = serializers.DictField(allow_null=True)


def _round_out(rnd: Round) -> dict:
    rnd = Round.objects.prefetch_related("tables__seats__entry__player", "byes__entry__player").get(
        pk=rnd.pk
    )
    return RoundOut(rnd).data


class RoundActions:
    """Actions of TournamentViewSet (which supplies get_object and the throttles)."""

    def get_throttles(self):
        # "rounds" and "round_detail" also read (GET): only their writes count.
        if self.request.method in permissions.SAFE_METHODS and self.action in (
            "rounds",
            "round_detail",
        ):
            return []
        return super().get_throttles()

    def _managed(self, request):
        t = self.get_object()
        if not may_manage_tournament(request.user, t):
            raise PermissionDenied(gettext("Only the organiser can do that."))
        return t

    def _round(self, request, number) -> Round:
        return get_object_or_404(Round, tournament=self._managed(request), number=number)

    def pair_next(self, request):
        """POST .../rounds/: pair the next round (201 with it, status "paired"); 400 if the
        current one is not finished, 200 with null once the tournament is over."""
        t = self._managed(request)
        rnd = rounds.pair_next_round(tournament=t)
        if rnd is None:
            return Response(None, status=status.HTTP_200_OK)
        return Response(_round_out(rnd), status=status.HTTP_201_CREATED)

    @extend_schema(methods=["GET"], responses=RoundOut)
    @extend_schema(methods=["DELETE"], request=None, responses={204: None, 400: ErrorSerializer})
    @action(detail=True, methods=["get", "delete"], url_path=ROUND, pagination_class=None,
            permission_classes=[permissions.IsAuthenticatedOrReadOnly])  # fmt: skip
    def round_detail(self, request, pk=None, number=None):
        """GET: one round. DELETE: unpair a paired round (organiser): its tables and byes go,
        and POST .../rounds/ pairs it again. 400 once started."""
        if request.method == "GET":
            return Response(_round_out(get_object_or_404(Round, tournament=self.get_object(),
                                                         number=number)))  # fmt: skip
        overrides.unpair(round_=self._round(request, number), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses={200: RoundOut, 400: ErrorSerializer})
    @action(detail=True, methods=["post"], url_path=rf"{ROUND}/start",
            permission_classes=[permissions.IsAuthenticated])  # fmt: skip
    def round_start(self, request, pk=None, number=None):
        """Start a paired round: its tables' matches are made (status "running")."""
        rnd = rounds.start_round(round_=self._round(request, number))
        return Response(_round_out(rnd))

    @extend_schema(request=SwapIn, responses={200: RoundOut, 400: ErrorSerializer})
    @action(detail=True, methods=["post"], url_path=rf"{ROUND}/swap",
            permission_classes=[permissions.IsAuthenticated])  # fmt: skip
    def round_swap(self, request, pk=None, number=None):
        """Swap two entrants' places in a paired round: {"entries": [a, b]} (logged)."""
        rnd = self._round(request, number)
        payload = SwapIn(data=request.data)
        payload.is_valid(raise_exception=True)
        first, second = payload.validated_data["entries"]
        overrides.swap(round_=rnd, first=first, second=second, by=request.user)
        return Response(_round_out(rnd))

    @extend_schema(responses=PairingChangeOut(many=True))
    @action(detail=True, url_path="pairing-log", pagination_class=None,
            permission_classes=[permissions.IsAuthenticated])  # fmt: skip
    def pairing_log(self, request, pk=None):
        """The organiser's overrides of paired rounds, newest first."""
        t = self._managed(request)
        return Response(PairingChangeOut(overrides.pairing_log(t), many=True).data)

    @extend_schema(request=None, responses={204: None, 400: ErrorSerializer})
    @action(detail=True, methods=["post"], url_path=r"entries/(?P<entry_id>[0-9]{1,18})/withdraw",
            permission_classes=[permissions.IsAuthenticated])  # fmt: skip
    def entry_withdraw(self, request, pk=None, entry_id=None):
        """Withdraw an entry (organiser): before a round is paired he is left out of it; a
        paired round not started that seats him is paired again without him."""
        t = self._managed(request)
        entry = get_object_or_404(Entry, pk=entry_id, tournament=t)
        if entry.withdrawn:
            raise ValidationError(gettext("Already withdrawn."), code="already_withdrawn")
        entrants.withdraw_entry(entry=entry)
        return Response(status=status.HTTP_204_NO_CONTENT)
