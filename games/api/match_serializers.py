from django.utils.translation import gettext
from rest_framework import serializers

from games import selectors
from games.api.fields import BoundedDictField
from games.api.inputs import InputSerializer
from games.engines.registry import ENGINES
from games.models import Match, MatchStatus, Seat, TimeoutPolicy
from games.models.matches import game_choices
from games.time_limits import MAX_DECISION_S, MAX_INCREMENT_S

# The model's own (slug, title) pairs: one GameEnum in the schema, not two colliding ones.
GAME_CHOICES = game_choices()
BOT_CHOICES = sorted({bot for engine in ENGINES.values() for bot in engine.bot_names()})


class SeatSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.name")
    kind = serializers.CharField(source="player.kind")

    class Meta:
        model = Seat
        fields = ["index", "player", "kind", "clock_ms", "forfeited", "timeouts", "score", "rank"]


class MatchSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)
    open_seats = serializers.SerializerMethodField(
        help_text="Seats anyone may still take (POST .../join/); the match waits for them."
    )
    time_control = serializers.SerializerMethodField()
    predictions = serializers.SerializerMethodField(
        help_text="Expected place and win chance per seat."
    )
    seed = serializers.IntegerField(
        read_only=True,
        allow_null=True,
        help_text="Secret (null) until the match is over: the engines are deterministic.",
    )

    class Meta:
        model = Match
        fields = [
            "id", "game", "variant", "options", "seed", "status", "rated", "timeout_policy",
            "time_control", "ply", "to_act", "deadline", "seats", "open_seats", "outcome", "predictions",
            "created_at", "started_at", "finished_at",
        ]  # fmt: skip
        read_only_fields = fields

    def get_open_seats(self, match: Match) -> list[int]:
        return [o.index for o in match.open_seats.all()]

    def get_time_control(self, match: Match) -> dict | None:
        return match.time_control()

    def to_representation(self, match: Match) -> dict:
        data = super().to_representation(match)
        # The engines are deterministic: a known seed would rebuild every hidden hand.
        if not selectors.record_is_public(match):
            data["seed"] = None
        return data

    def get_predictions(self, match: Match) -> dict | None:
        # Only the detail view pays for predictions; lists leave them out.
        if not self.context.get("with_predictions"):
            return None
        return selectors.match_predictions(match)


class SeatRequestSerializer(InputSerializer):
    player = serializers.SlugField(
        required=False, max_length=40, help_text="A player's name (human or bot)."
    )
    bot = serializers.ChoiceField(
        required=False, choices=BOT_CHOICES, help_text="A built-in bot: random, greedy, ismcts."
    )
    params = BoundedDictField(required=False, max_keys=16, help_text="Built-in bot parameters.")
    open = serializers.BooleanField(
        required=False, help_text="true: an open seat anyone may take (POST .../join/)."
    )

    def validate(self, data):
        given = ("player" in data) + ("bot" in data) + bool(data.get("open"))
        if given != 1:
            raise serializers.ValidationError(
                gettext("Give exactly one of 'player', 'bot' or 'open': true.")
            )
        return data


class TimeControlSerializer(InputSerializer):
    """Either `per_move_s`, or `initial_s` (+ `increment_s`); at most a week per decision
    or clock (games.services.matches.MAX_DECISION_S), a day of increment."""

    per_move_s = serializers.IntegerField(required=False, min_value=1, max_value=MAX_DECISION_S)
    initial_s = serializers.IntegerField(required=False, min_value=1, max_value=MAX_DECISION_S)
    increment_s = serializers.IntegerField(required=False, min_value=0, max_value=MAX_INCREMENT_S)


class MatchCreateSerializer(InputSerializer):
    game = serializers.ChoiceField(choices=GAME_CHOICES)
    variant = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**63 - 1
    )
    options = BoundedDictField(required=False, default=dict)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62)
    seats = SeatRequestSerializer(many=True, min_length=1, max_length=8)
    time_control = TimeControlSerializer(required=False, allow_null=True)
    timeout_policy = serializers.ChoiceField(choices=TimeoutPolicy.values, default="auto")
    rated = serializers.BooleanField(default=False)


class ActionSubmitSerializer(InputSerializer):
    ply = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, help_text="The ply you saw (from the state)."
    )
    action = BoundedDictField(help_text="One of the legal actions, as given by the state.")


class MatchFilterSerializer(serializers.Serializer):
    """The list's query filters: a junk value is a 400, not a query that fails."""

    status = serializers.ChoiceField(choices=MatchStatus.values, required=False)
    game = serializers.ChoiceField(choices=GAME_CHOICES, required=False)
    player = serializers.CharField(required=False, max_length=40, help_text="A player's name.")


class LegalActionSerializer(serializers.Serializer):
    action = serializers.DictField()
    label = serializers.CharField()
    targets = serializers.ListField(
        child=serializers.CharField(),
        help_text="Board ids (data-target in the SVG) to click for this action, in order.",
    )
    choice = serializers.CharField(
        allow_null=True, help_text="A label for the part of the action not on the board."
    )


class MatchStateSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    status = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True, help_text="Your seat; null = spectator.")
    to_act = serializers.IntegerField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    observation = serializers.DictField(allow_null=True)
    legal_actions = LegalActionSerializer(many=True)


class LogEntrySerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.DictField()
    label = serializers.CharField(allow_blank=True)
    source = serializers.CharField()
    time_used_ms = serializers.IntegerField()
    at = serializers.DateTimeField()


class ErrorSerializer(serializers.Serializer):
    """Every error's body (core/api_errors.py)."""

    code = serializers.CharField(help_text="Stable, for programs: e.g. stale_ply, invalid.")
    detail = serializers.CharField(help_text="A sentence for people, in the request's language.")
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), required=False,
        help_text="Only for errors about the body's fields: messages per dotted path.",
    )  # fmt: skip


class ResignSerializer(InputSerializer):
    seat = serializers.IntegerField(
        required=False, min_value=0, max_value=4, help_text="Your seat (default: your first)."
    )
