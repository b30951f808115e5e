"""GET /api/me/notifications/ and POST /api/me/notifications/read/."""

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from notifications import selectors, services
from notifications.models import Notification
from notifications.texts import text


class NotificationSerializer(serializers.ModelSerializer):
    text = serializers.SerializerMethodField()
    read = serializers.SerializerMethodField()

    class Meta:
        model = Notification
        fields = ["id", "kind", "url", "text", "created_at", "read"]
        read_only_fields = fields

    def get_text(self, notice: Notification) -> str:
        return text(notice.kind, notice.data)  # in the request's language

    def get_read(self, notice: Notification) -> bool:
        return notice.read_at is not None


class MyNotificationsView(ListAPIView):
    """The caller's notices, newest first (paginated: ?limit=&offset=)."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = NotificationSerializer

    def get_queryset(self):
        return selectors.notices_for(self.request.user)


class MarkReadSerializer(serializers.Serializer):
    # An id past a 64-bit integer is no notice: refused here, not by the database.
    ids = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
                                required=False, max_length=1000)  # fmt: skip
    all = serializers.BooleanField(required=False)

    def validate(self, attrs):
        if bool(attrs.get("ids")) == bool(attrs.get("all")):
            raise serializers.ValidationError(
                'Send either "ids" (a non-empty list) or "all": true.'
            )
        return attrs


class MarkReadView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=MarkReadSerializer,
                   responses={200: {"type": "object", "properties": {
                       "marked": {"type": "integer"}, "unread": {"type": "integer"}}}})  # fmt: skip
    def post(self, request):
        body = MarkReadSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        marked = services.mark_read(user=request.user, ids=body.validated_data.get("ids"),
                                    everything=bool(body.validated_data.get("all")))  # fmt: skip
        return Response({"marked": marked, "unread": selectors.unread_count(request.user)})
