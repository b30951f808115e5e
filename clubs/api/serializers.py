"""The clubs API's bodies: what it answers (Club, Membership) and what it takes (refusing
fields it does not know: games.api.inputs.InputSerializer). The values are checked by
clubs.services.membership, as for the pages."""

from django.conf import settings
from rest_framework import serializers

from clubs.models import Club, Membership, Role, Visibility
from clubs.services import membership
from games.api.inputs import InputSerializer

LANGUAGE_CODES = [code for code, _name in settings.LANGUAGES]


class ClubOut(serializers.ModelSerializer):
    members = serializers.IntegerField(read_only=True, help_text="Active members.")
    url = serializers.SerializerMethodField(help_text="The club's page.")
    # Empty when the club has none: a plain string, not a "uri".
    logo_url = serializers.CharField(
        read_only=True, help_text="An image's https address, or empty."
    )

    class Meta:
        model = Club
        fields = ["slug", "name", "city", "description", "logo_url", "languages", "visibility",
                  "rated", "members", "url", "created_at"]  # fmt: skip
        read_only_fields = fields

    def get_url(self, club) -> str:
        return f"/clubs/{club.slug}/"


class ClubIn(InputSerializer):
    name = serializers.CharField(max_length=membership.MAX_NAME)
    slug = serializers.CharField(max_length=membership.MAX_SLUG, required=False, allow_blank=True,
                                 help_text="The club's address; from the name when left out.")  # fmt: skip
    city = serializers.CharField(max_length=membership.MAX_CITY, required=False, allow_blank=True)
    description = serializers.CharField(max_length=membership.MAX_DESCRIPTION, required=False,
                                        allow_blank=True, trim_whitespace=False)  # fmt: skip
    logo_url = serializers.CharField(max_length=membership.MAX_LOGO_URL, required=False,
                                     allow_blank=True, help_text="An image's https:// address.")  # fmt: skip
    languages = serializers.ListField(child=serializers.ChoiceField(choices=LANGUAGE_CODES),
                                      required=False, max_length=len(LANGUAGE_CODES) * 2)  # fmt: skip
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)


class ClubPatch(ClubIn):
    """Any of the fields, each optional; `rated` is set by staff in the admin only."""

    name = serializers.CharField(max_length=membership.MAX_NAME, required=False)
    slug = serializers.CharField(max_length=membership.MAX_SLUG, required=False)


class MembershipOut(serializers.ModelSerializer):
    user = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "user", "role", "status", "created_at", "joined_at"]
        read_only_fields = fields


class RoleIn(InputSerializer):
    role = serializers.ChoiceField(choices=[Role.ORGANISER, Role.MEMBER])


class InviteIn(InputSerializer):
    username = serializers.CharField(max_length=150)


class InvitedOut(serializers.Serializer):
    invitation = serializers.IntegerField(
        allow_null=True, help_text="The invitation she answers (null: she had asked to join "
                                   "and is a member now)."
    )  # fmt: skip
    membership = MembershipOut(allow_null=True)
