"""The API of a person's own data: GET /api/me/export/ (everything about her, the JSON the
settings page's download gives), DELETE /api/me/ (her account; core.personal_data) and her
API tokens, /api/me/tokens/ (core.tokens)."""

from __future__ import annotations

from django.http import Http404
from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core import personal_data, throttling, tokens
from core.models import ApiToken
from games.api.inputs import InputSerializer


class DeleteAccountSerializer(InputSerializer):
    # Not required here: personal_data.check_deletion words what is missing or wrong.
    confirm = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False,
                                    help_text="Your username, typed again.")  # fmt: skip
    password = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)


class MeView(throttling.WriteThrottleMixin, APIView):
    """DELETE: the caller's account (personal data and log-in removed; finished games and
    ratings stay, under an anonymous name). Not undoable."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_scopes = {"delete": "account_settings"}

    @extend_schema(request=DeleteAccountSerializer, responses={204: None})
    def delete(self, request):
        payload = DeleteAccountSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        personal_data.check_deletion(
            request.user, confirm=payload.validated_data.get("confirm"),
            password=payload.validated_data.get("password"),
        )  # fmt: skip
        personal_data.delete_account(request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MyExportView(APIView):
    """Everything the site holds about the caller, as one JSON document."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request):
        return Response(personal_data.export_for(request.user))


class TokenSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "created_at", "expires_at", "last_used_at"]
        read_only_fields = fields


class TokenCreateSerializer(InputSerializer):
    name = serializers.CharField(required=False, allow_blank=True, max_length=80,
                                 help_text="What the token is for, e.g. 'laptop'.")  # fmt: skip


class TokenCreatedSerializer(TokenSerializer):
    key = serializers.CharField(
        read_only=True,
        help_text="Shown once, never again: send it as 'Authorization: Token <key>'.",
    )

    class Meta(TokenSerializer.Meta):
        fields = [*TokenSerializer.Meta.fields, "key"]
        read_only_fields = fields


class MyTokensView(throttling.WriteThrottleMixin, APIView):
    """GET: the caller's API tokens (never their keys: only a hash is kept). POST: a new
    token, its key in the answer once; it expires after API_TOKEN_TTL_DAYS. A bot program's
    account holds one token: its POST replaces the old one (the old key stops working at
    once), so a bot rotates its own key; a person may hold several."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_scopes = {"post": "account_settings", "delete": "account_settings"}

    @extend_schema(responses={200: TokenSerializer(many=True)})
    def get(self, request):
        return Response(TokenSerializer(tokens.tokens_of(request.user), many=True).data)

    @extend_schema(request=TokenCreateSerializer, responses={201: TokenCreatedSerializer})
    def post(self, request):
        payload = TokenCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        token, key = tokens.issue(
            request.user, name=payload.validated_data.get("name", ""),
            replace=tokens.one_token_only(request.user),
        )  # fmt: skip
        token.key = key
        return Response(TokenCreatedSerializer(token).data, status=status.HTTP_201_CREATED)


class MyTokenView(throttling.WriteThrottleMixin, APIView):
    """DELETE: revoke one of the caller's tokens (404 for anyone else's)."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_scopes = {"delete": "account_settings"}

    @extend_schema(responses={204: None})
    def delete(self, request, id: int):
        if not tokens.revoke(request.user, id):
            raise Http404  # core.api_errors: 404 not_found
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("me/", MeView.as_view(), name="api-me"),
    path("me/export/", MyExportView.as_view(), name="api-my-export"),
    path("me/tokens/", MyTokensView.as_view(), name="api-my-tokens"),
    path("me/tokens/<int:id>/", MyTokenView.as_view(), name="api-my-token"),
]
