"""The match API: what bot programs and clients use to play."""

import json
import math
import time

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.http import StreamingHttpResponse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.generics import get_object_or_404
from rest_framework.renderers import BaseRenderer
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from core import throttling
from games import selectors, services
from games.api.match_serializers import (
    ActionSubmitSerializer,
    ErrorSerializer,
    LogEntrySerializer,
    MatchCreateSerializer,
    MatchFilterSerializer,
    MatchSerializer,
    MatchStateSerializer,
    ResignSerializer,
)
from games.models import Match, Player


class WriteThrottleMixin(throttling.WriteThrottleMixin):
    """Scoped rate limits on the write actions only (core/throttling.py)."""

    throttle_scopes = {
        "create": "match_create",
        "actions": "match_actions",
        "abort": "match_create",
        "resign": "match_create",
        "join": "match_create",
    }


SEAT_PARAM = OpenApiParameter("seat", int, description="View as this own seat (default: yours).")
# Ids are whole numbers: anything else is not a route (404), never a failed query.
ID_PATTERN = r"[0-9]{1,18}"


@extend_schema_view(list=extend_schema(parameters=[MatchFilterSerializer]))
class MatchViewSet(WriteThrottleMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                   viewsets.GenericViewSet):  # fmt: skip
    serializer_class = MatchSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    lookup_value_regex = ID_PATTERN

    def get_queryset(self):
        if self.action != "list":
            return selectors.match_list()
        filters = MatchFilterSerializer(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        return selectors.match_list(**filters.validated_data)

    @extend_schema(request=MatchCreateSerializer, responses={201: MatchSerializer})
    def create(self, request):
        payload = MatchCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        players = [self._seat_player(seat) for seat in data["seats"]]
        match = services.create_match(
            game=data["game"], players=players, options=data["options"],
            variant=selectors.variant_by_id(data.get("variant")), seed=data.get("seed"),
            time_control=data.get("time_control"), timeout_policy=data["timeout_policy"],
            rated=data["rated"], created_by=request.user,
        )  # fmt: skip
        return Response(MatchSerializer(match).data, status=status.HTTP_201_CREATED)

    def retrieve(self, request, pk=None):
        match = self.get_object()
        return Response(MatchSerializer(match, context={"with_predictions": True}).data)

    @staticmethod
    def _seat_player(seat: dict) -> Player | None:
        # Bot parameters are checked against the bot's schema by the services.
        if seat.get("open"):
            return None  # an open seat: the match waits until someone joins
        if "bot" in seat:
            return services.builtin_bot_player(bot_name=seat["bot"], params=seat.get("params"))
        return selectors.player_named(seat["player"], field="seats")

    @extend_schema(parameters=[SEAT_PARAM], responses=MatchStateSerializer)
    @action(detail=True)
    def state(self, request, pk=None):
        """Your observation (a spectator's if you hold no seat) and, when you are to act,
        the legal actions with labels."""
        match = self.get_object()
        seat = selectors.viewer_seat(match, request.user, _int_param(request, "seat"))
        return Response(MatchStateSerializer(selectors.match_view(match, seat)).data)

    @extend_schema(
        request=ActionSubmitSerializer,
        responses={
            201: LogEntrySerializer,
            400: ErrorSerializer,
            403: ErrorSerializer,
            409: ErrorSerializer,
        },
    )
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def actions(self, request, pk=None):
        """Submit a decision for the ply you saw: stale ply 409, not your seat 403,
        illegal 400 with the engine's reason. Sending the same one twice applies it once."""
        get_object_or_404(Match, pk=pk)
        payload = ActionSubmitSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        record = services.submit_action(
            match_id=int(pk), user=request.user, ply=payload.validated_data["ply"],
            action=payload.validated_data["action"],
        )  # fmt: skip
        body = {"ply": record.ply, "seat": record.seat, "action": record.action, "label": record.label,
                "source": record.source, "time_used_ms": record.time_used_ms, "at": record.created_at}  # fmt: skip
        return Response(LogEntrySerializer(body).data, status=status.HTTP_201_CREATED)

    @extend_schema(parameters=[SEAT_PARAM], responses=LogEntrySerializer(many=True))
    @action(detail=True, pagination_class=None)
    def log(self, request, pk=None):
        """The applied actions; while the match runs, redacted for your seat."""
        match = self.get_object()
        seat = selectors.viewer_seat(match, request.user, _int_param(request, "seat"))
        return Response(LogEntrySerializer(selectors.match_log(match, seat), many=True).data)

    @extend_schema(
        request=None, responses={200: MatchSerializer, 403: ErrorSerializer, 409: ErrorSerializer}
    )
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def abort(self, request, pk=None):
        get_object_or_404(Match, pk=pk)
        match = services.abort_match(match_id=int(pk), user=request.user)
        return Response(MatchSerializer(match).data)

    @extend_schema(
        request=None,
        responses={
            200: MatchSerializer, 401: ErrorSerializer, 403: ErrorSerializer,
            404: ErrorSerializer, 409: ErrorSerializer,
        },
    )  # fmt: skip
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def join(self, request, pk=None):
        """Take the first open seat of a waiting match; the last seat taken starts it.
        409 with code `already_started` (running, over or cancelled), `match_full` (no seat
        open) or `already_seated` (you or your bot hold a seat); 401 when not logged in."""
        services.join_match(match_id=int(pk), user=request.user)
        match = selectors.match_list().get(pk=pk)
        return Response(MatchSerializer(match).data)

    @extend_schema(
        request=ResignSerializer,
        responses={200: MatchSerializer, 403: ErrorSerializer, 409: ErrorSerializer},
    )
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def resign(self, request, pk=None):
        """Leave a running match: your seat ranks last, as a forfeit (a bot plays on for it
        while two or more seats remain; otherwise the match ends now)."""
        payload = ResignSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        get_object_or_404(Match, pk=pk)
        match = services.resign(
            match_id=int(pk), user=request.user, seat=payload.validated_data.get("seat")
        )
        return Response(MatchSerializer(match).data)


def _int_param(request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw is None:
        return None
    if not raw.isascii() or not raw.lstrip("-").isdigit() or len(raw) > 6:
        raise ValidationError({name: gettext("must be a small whole number")})
    return int(raw)


class MyTurnsView(APIView):
    """The caller's matches waiting for its decision: what a bot program polls."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=MatchSerializer(many=True))
    def get(self, request):
        matches = selectors.turns_waiting_for(request.user)
        return Response(MatchSerializer(matches, many=True).data)


class EventStreamRenderer(BaseRenderer):
    """Lets EventSource clients (which send `Accept: text/event-stream`) in; the events
    themselves are streamed by the view, only error bodies are rendered here (as JSON)."""

    media_type = "text/event-stream"
    format = "event-stream"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return json.dumps(data, cls=DjangoJSONEncoder).encode()


class MyTurnsStreamView(APIView):
    """Server-sent events: a `turns` event with the waiting matches whenever they change.

    The stream ends after `STREAM_SECONDS` (EventSource clients reconnect by
    themselves), so a web worker is never held for long; comments keep it alive."""

    permission_classes = [permissions.IsAuthenticated]
    renderer_classes = [*api_settings.DEFAULT_RENDERER_CLASSES, EventStreamRenderer]
    STREAM_SECONDS = 55
    POLL_SECONDS = 0.5
    KEEPALIVE_SECONDS = 15

    @extend_schema(
        parameters=[OpenApiParameter("seconds", float, description="End the stream sooner.")],
        responses={(200, "text/event-stream"): str},
    )
    def get(self, request):
        user = request.user
        duration = self._duration(request.query_params.get("seconds"))
        return StreamingHttpResponse(self._events(user, duration), content_type="text/event-stream",
                                     headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})  # fmt: skip

    def _duration(self, raw: str | None) -> float:
        """`?seconds=`: a number from 0 up; more than STREAM_SECONDS is cut down to it."""
        if raw is None:
            return self.STREAM_SECONDS
        try:
            seconds = float(raw) if len(raw) <= 32 else math.nan
        except ValueError:
            seconds = math.nan
        if not math.isfinite(seconds) or seconds < 0:
            raise ValidationError({"seconds": gettext("must be a number of seconds, 0 or more")})
        return min(self.STREAM_SECONDS, seconds)

    def _events(self, user, duration: float):
        last, last_sent = None, time.monotonic()
        end = time.monotonic() + duration
        yield "retry: 1000\n\n"
        while time.monotonic() < end:
            matches = selectors.turns_waiting_for(user)
            key = [(m.pk, m.ply) for m in matches]
            if key != last:
                data = json.dumps(MatchSerializer(matches, many=True).data, cls=DjangoJSONEncoder)
                yield f"event: turns\ndata: {data}\n\n"
                last, last_sent = key, time.monotonic()
            elif time.monotonic() - last_sent > self.KEEPALIVE_SECONDS:
                yield ": keep-alive\n\n"
                last_sent = time.monotonic()
            # Hand a pooled connection back while waiting: streams must not hold one
            # each for their whole length. (Not inside a transaction: tests.)
            if getattr(connection, "pool", None) and not connection.in_atomic_block:
                connection.close_if_unusable_or_obsolete()
            time.sleep(self.POLL_SECONDS)
