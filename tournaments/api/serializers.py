from rest_framework import serializers

from games.api.fields import BoundedDictField
from games.api.inputs import InputSerializer
from games.api.match_serializers import GAME_CHOICES, TimeControlSerializer
from games.models import TimeControl, Variant
from tournaments.models import FORMAT_CHOICES, Round, Table, Tournament
from tournaments.selectors import config_problem
from tournaments.services.setup import (
    MAX_DESCRIPTION,
    MAX_ENTRY_LIMIT,
    MAX_ROUND_DAYS,
    MAX_SEED,
    MAX_VENUE,
    event_club,
)
from tournaments.zones import zone_name

# Scores typed in for over-the-board games: any finite number within reason (the game's
# own score rules are checked elsewhere).
MAX_SCORE = 1e9


class TournamentSerializer(serializers.ModelSerializer):
    entrants = serializers.SerializerMethodField(
        help_text="Entries with a place (withdrawn ones too; not the waitlist)."
    )
    time_control = serializers.SerializerMethodField()
    config_warning = serializers.SerializerMethodField(
        help_text="Set when the stored settings are invalid (standings can't be computed)."
    )
    time_zone = serializers.SerializerMethodField(
        help_text="The event's IANA zone: its pages show and read times in it (the times "
        "here are UTC, with their offset)."
    )
    co_organisers = serializers.SerializerMethodField(
        help_text="User names of those who run it with the organiser."
    )
    club = serializers.SerializerMethodField(
        help_text="The slug of the club whose event it is (its organisers all manage it), or null."
    )

    class Meta:
        model = Tournament
        fields = [
            "id", "name", "game", "format", "config", "config_warning", "options", "time_control",
            "timeout_policy", "rated", "over_the_board", "auto_advance", "round_days", "status",
            "current_round", "entrants", "created_at", "started_at", "finished_at",
            "variant", "venue", "description", "starts_at", "entry_limit", "check_in", "paused",
            "auto_start", "auto_start_failed_at", "auto_start_failure", "time_zone",
            "co_organisers", "club",
        ]  # fmt: skip
        read_only_fields = fields

    def get_club(self, t) -> str | None:
        club = event_club(t)  # the reverse accessor club_event (tournaments never imports clubs)
        return club.slug if club is not None else None

    def get_co_organisers(self, t) -> list[str]:
        return sorted(u.username for u in t.co_organisers.all())

    def get_time_zone(self, t) -> str:
        return zone_name(t)

    def get_time_control(self, t) -> dict | None:
        return t.time_control()

    def get_entrants(self, t) -> int:
        return t.entries.filter(waitlisted_at__isnull=True).count()

    def get_config_warning(self, t) -> str | None:
        return config_problem(t)


class TournamentCreateSerializer(InputSerializer):
    name = serializers.CharField(max_length=120)
    game = serializers.ChoiceField(choices=GAME_CHOICES)
    format = serializers.ChoiceField(choices=FORMAT_CHOICES)
    config = BoundedDictField(
        required=False, default=dict, max_keys=16,
        help_text="Format settings: table_size, rounds (at most 100), double, points, "
        "bye_points, tiebreaks, third_place, advance, grand_final_reset, min_table_size.",
    )  # fmt: skip
    options = BoundedDictField(required=False, default=dict)
    time_control = TimeControlSerializer(required=False, allow_null=True)
    timeout_policy = serializers.ChoiceField(choices=["auto", "forfeit"], default="auto")
    rated = serializers.BooleanField(
        required=False,
        help_text="Default: rated, except over-the-board events of organisers without the "
        "run_rated_events permission, or of a club the staff have not marked rated "
        "(unrated; asking for rated is then a 400).",
    )
    over_the_board = serializers.BooleanField(default=False)
    auto_advance = serializers.BooleanField(
        required=False,
        help_text="Pair and start the next round when the last result is in. Default: true "
        "online, false over the board.",
    )
    round_days = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_ROUND_DAYS
    )
    seed = serializers.IntegerField(required=False, min_value=0, max_value=MAX_SEED)
    # Event details (checked again by tournaments.services.setup.clean_details).
    variant = serializers.PrimaryKeyRelatedField(
        queryset=Variant.objects.all(), required=False, allow_null=True,
        help_text="A variant of the chosen game (its options).",
    )  # fmt: skip
    time_control_preset = serializers.PrimaryKeyRelatedField(
        queryset=TimeControl.objects.all(), required=False, allow_null=True,
        help_text="A time-control preset, instead of time_control.",
    )  # fmt: skip
    venue = serializers.CharField(required=False, allow_blank=True, max_length=MAX_VENUE)
    description = serializers.CharField(
        required=False, allow_blank=True, max_length=MAX_DESCRIPTION
    )
    starts_at = serializers.DateTimeField(
        required=False, allow_null=True, help_text="Planned start; in the future."
    )
    auto_start = serializers.BooleanField(
        required=False, default=False,
        help_text="Start at starts_at as the start action would (needs starts_at); a refusal "
        "(e.g. too few entrants) is recorded in auto_start_failure and not retried.",
    )  # fmt: skip
    entry_limit = serializers.IntegerField(
        required=False, allow_null=True, min_value=2, max_value=MAX_ENTRY_LIMIT
    )
    check_in = serializers.BooleanField(
        required=False, default=False,
        help_text="Only entrants who checked in are paired at the start.",
    )  # fmt: skip
    time_zone = serializers.CharField(
        required=False, allow_blank=True, max_length=64,
        help_text="The event's IANA zone, e.g. Europe/Prague (its pages show times in it). "
        "Default: the organiser's saved zone, else the site's.",
    )  # fmt: skip
    club = serializers.SlugField(
        required=False, allow_null=True, max_length=60,
        help_text="The slug of a club you own or organise: the event is the club's (its "
        "organisers all manage it; over the board it is rated only if the club is rated).",
    )  # fmt: skip
    members_only = serializers.BooleanField(
        required=False, default=False,
        help_text="With club: only the club's members may enter (its organisers may enter "
        "guests).",
    )  # fmt: skip

    def validate(self, data):
        # Over the board, results are typed in as the evening goes: no pairing on its own.
        data.setdefault("auto_advance", not data.get("over_the_board", False))
        return data


class TournamentUpdateSerializer(InputSerializer):
    """PATCH: only the fields sent change (tournaments.services.editing says what may when)."""

    name = serializers.CharField(required=False, max_length=120)
    venue = serializers.CharField(required=False, allow_blank=True, max_length=MAX_VENUE)
    description = serializers.CharField(
        required=False, allow_blank=True, max_length=MAX_DESCRIPTION
    )
    starts_at = serializers.DateTimeField(required=False, allow_null=True)
    auto_start = serializers.BooleanField(required=False)
    auto_advance = serializers.BooleanField(required=False)
    time_zone = serializers.CharField(
        required=False, allow_blank=True, max_length=64,
        help_text="The event's IANA zone (until it is over); blank: the site's.",
    )  # fmt: skip
    format = serializers.ChoiceField(required=False, choices=FORMAT_CHOICES)
    rated = serializers.BooleanField(required=False)
    config = BoundedDictField(
        required=False, max_keys=16,
        help_text="The settings to change (null removes one); after the start only rounds "
        "(Swiss; not below the rounds already paired).",
    )  # fmt: skip
    co_organisers = serializers.ListField(
        child=serializers.CharField(max_length=150), required=False, max_length=10,
        help_text="User names of members who run it with the organiser (the whole list; "
        "only the organiser may change it).",
    )  # fmt: skip
    # Accepted to be refused with the reason (fixed at creation), not as an unknown field.
    game = serializers.ChoiceField(required=False, choices=GAME_CHOICES)
    over_the_board = serializers.BooleanField(required=False)


class EntryRequestSerializer(InputSerializer):
    guest = serializers.CharField(
        required=False, max_length=1000,
        help_text="Organisers: enter a guest (no account, never rated) by this name instead.",
    )  # fmt: skip
    player = serializers.SlugField(
        required=False, max_length=40,
        help_text="Organisers may enter any player; default: yourself.",
    )  # fmt: skip
    seed = serializers.IntegerField(required=False, min_value=1, max_value=MAX_SEED)


class TableSeatOut(serializers.Serializer):
    index = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry_id")
    player = serializers.CharField(source="entry.player.name")
    name = serializers.CharField(source="entry.player.__str__", help_text="The shown name.")


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
    rank = serializers.IntegerField(
        allow_null=True, help_text="null until a game of the tournament has been played."
    )
    place = serializers.CharField(
        allow_null=True,
        help_text='The place as shown: "3–4" for the players out in the same elimination '
        "round; else the rank. null until a game has been played.",
    )
    entry = serializers.IntegerField()
    player = serializers.CharField(help_text="The player's handle (Player.name).")
    name = serializers.CharField(help_text="The shown name (a guest's: as typed in).")
    points = serializers.FloatField()
    played = serializers.IntegerField()
    tiebreaks = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text="Tie-break values in the ranking order; average_place is null without a "
        "finished table; no rating in an unrated event. Withdrawn entrants rank after "
        "every active one.",
    )
    withdrawn = serializers.BooleanField()
    guest = serializers.BooleanField(help_text="A guest entrant (no account, never rated).")


class ForecastOut(serializers.Serializer):
    entry = serializers.IntegerField()
    player = serializers.CharField(help_text="The player's handle (Player.name).")
    name = serializers.CharField(help_text="The shown name.")
    places = serializers.ListField(
        child=serializers.FloatField(),
        help_text="Probability of each final place, 1st first (sums to 1).",
    )
    can_win = serializers.BooleanField(
        help_text="Whether the entrant can still finish first (level on points counts)."
    )


class ResultIn(InputSerializer):
    scores = serializers.ListField(
        child=serializers.FloatField(min_value=-MAX_SCORE, max_value=MAX_SCORE),
        min_length=2, max_length=5,
    )  # fmt: skip
    tiebreak = serializers.ListField(child=serializers.FloatField(min_value=-MAX_SCORE, max_value=MAX_SCORE),
                                     required=False, allow_null=True, max_length=5,
                                     help_text="The game's tie-break per seat (Silk Road: camel driver value).")  # fmt: skip


class EntryOut(serializers.Serializer):
    entry = serializers.IntegerField()
    player = serializers.CharField(help_text="The player's handle (Player.name).")
    name = serializers.CharField(required=False, help_text="The shown name.")
    joined_round = serializers.IntegerField()
    waitlisted = serializers.BooleanField(
        required=False, help_text="The tournament was full: on the waitlist (no place yet)."
    )


class ResultOut(serializers.Serializer):
    table = serializers.IntegerField()
    result = serializers.DictField(help_text="ranks, scores and forfeited, one per seat.")


class PlannedStartIn(InputSerializer):
    starts_at = serializers.DateTimeField(allow_null=True, help_text="In the future; null: none.")
    auto_start = serializers.BooleanField(default=False)
