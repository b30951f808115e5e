"""The invitation API: a player's open invitations, and answering them."""

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from core import throttling
from games import selectors, services
from games.api.match_serializers import ErrorSerializer
from games.models import Invitation


class InvitationSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.name")
    invited_by = serializers.SerializerMethodField()

    class Meta:
        model = Invitation
        fields = ["id", "kind", "match", "target_kind", "target_id", "player", "invited_by",
                  "status", "expires_at", "created_at", "answered_at"]  # fmt: skip
        read_only_fields = fields

    def get_invited_by(self, invitation: Invitation) -> str | None:
        user = invitation.invited_by
        if user is None:
            return None
        player = getattr(user, "player", None)
        return player.name if player is not None else user.username

    def to_representation(self, invitation: Invitation) -> dict:
        data = super().to_representation(invitation)
        if invitation.target_kind:  # e.g. "tournament": 12
            data[invitation.target_kind] = invitation.target_id
        return data


class MyInvitationsView(APIView):
    """The caller's invitations, newest first (`?status=pending` for the open ones)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=InvitationSerializer(many=True))
    def get(self, request):
        invitations = selectors.invitations_for(
            request.user, status=request.query_params.get("status")
        )
        return Response(InvitationSerializer(invitations, many=True).data)


class _AnswerView(throttling.WriteThrottleMixin, APIView):
    throttle_scopes = {"post": "invitations"}
    permission_classes = [permissions.IsAuthenticated]
    answer = None

    @extend_schema(
        request=None,
        responses={200: InvitationSerializer, 403: ErrorSerializer, 404: ErrorSerializer,
                   409: ErrorSerializer},
    )  # fmt: skip
    def post(self, request, pk: int):
        invitation = type(self).answer(invitation_id=pk, user=request.user)
        invitation.refresh_from_db()
        return Response(InvitationSerializer(invitation).data)


class AcceptInvitationView(_AnswerView):
    """Accept (only the invited player); the last acceptance of a match starts it."""

    answer = staticmethod(services.accept_invitation)


class DeclineInvitationView(_AnswerView):
    """Decline (only the invited player); a declined match is cancelled."""

    answer = staticmethod(services.decline_invitation)
