from rest_framework import serializers

from tournaments.models import FORMAT_CHOICES, Round, Table, Tournament


class TournamentSerializer(serializers.ModelSerializer):
    entrants = serializers.IntegerField(source="entries.count", read_only=True)
    time_control = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id", "name", "game", "format", "config", "options", "time_control", "timeout_policy",
            "rated", "over_the_board", "auto_advance", "round_days", "status", "current_round",
            "entrants", "created_at", "started_at", "finished_at",
        ]  # fmt: skip
        read_only_fields = fields

    def get_time_control(self, t) -> dict | None:
        return t.time_control()


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    game = serializers.CharField()
    format = serializers.ChoiceField(choices=[c for c, _ in FORMAT_CHOICES])
    config = serializers.DictField(required=False, default=dict)
    options = serializers.DictField(required=False, default=dict)
    time_control = serializers.DictField(required=False, allow_null=True)
    timeout_policy = serializers.ChoiceField(choices=["auto", "forfeit"], default="auto")
    rated = serializers.BooleanField(
        required=False,
        help_text="Default: rated, except over-the-board events of organisers without the "
        "run_rated_events permission (unrated; asking for rated is then a 400).",
    )
    over_the_board = serializers.BooleanField(default=False)
    auto_advance = serializers.BooleanField(default=True)
    round_days = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**31)


class EntryRequestSerializer(serializers.Serializer):
    player = serializers.SlugField(
        required=False, help_text="Organisers may enter any player; default: yourself."
    )
    seed = serializers.IntegerField(required=False, min_value=1)


class TableSeatOut(serializers.Serializer):
    index = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry_id")
    player = serializers.CharField(source="entry.player.name")


class TableOut(serializers.ModelSerializer):
    seats = TableSeatOut(many=True)
    match = serializers.IntegerField(source="match_id", allow_null=True)

    class Meta:
        model = Table
        fields = ["id", "number", "bracket", "status", "match", "seats", "result"]


class RoundOut(serializers.ModelSerializer):
    tables = TableOut(many=True)
    byes = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = ["number", "label", "status", "deadline", "tables", "byes"]

    def get_byes(self, rnd) -> list[str]:
        return [b.entry.player.name for b in rnd.byes.all()]


class StandingOut(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.CharField()
    points = serializers.FloatField()
    played = serializers.IntegerField()
    tiebreaks = serializers.DictField(child=serializers.FloatField())
    withdrawn = serializers.BooleanField()


class ResultIn(serializers.Serializer):
    scores = serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=5)
    tiebreak = serializers.ListField(child=serializers.FloatField(), required=False, allow_null=True,
                                     help_text="The game's tie-break per seat (Silk Road: camel driver value).")  # fmt: skip
