"""The API of a person's own data: GET /api/me/export/ (everything about her, the JSON the
settings page's download gives) and DELETE /api/me/ (her account; core.personal_data)."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core import personal_data, throttling
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


urlpatterns = [
    path("me/", MeView.as_view(), name="api-me"),
    path("me/export/", MyExportView.as_view(), name="api-my-export"),
]
