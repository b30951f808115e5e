from rest_framework import serializers

from games.api.inputs import InputSerializer
from games.models import Player


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = [
            "id",
            "name",
            "display_name",
            "kind",
            "bot_name",
            "bot_params",
            "game",
            "created_at",
        ]
        read_only_fields = fields


class ExternalBotCreateSerializer(InputSerializer):
    name = serializers.SlugField(max_length=40)
    description = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=2000
    )


class ExternalBotCreatedSerializer(serializers.Serializer):
    player = PlayerSerializer()
    token = serializers.CharField(
        help_text="Shown once: send it as 'Authorization: Token <token>'."
    )


class GameSerializer(serializers.Serializer):
    slug = serializers.CharField()
    title = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    option_schema = serializers.JSONField()
    bots = serializers.ListField(child=serializers.CharField())


class MySettingsSerializer(InputSerializer):
    time_zone = serializers.CharField(
        max_length=64, allow_blank=True,
        help_text="IANA name (e.g. Europe/Prague) pages show your times in; empty: your "
        "browser's zone, else the site's. The API itself answers in UTC whatever it is.",
    )  # fmt: skip
    site_time_zone = serializers.CharField(read_only=True)
