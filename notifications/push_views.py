"""Web Push: POST/DELETE /api/me/push/ (the browser's subscription) and /push-sw.js (the
service worker, served from the site's root so that its scope can be the whole site)."""

from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse
from django.views.decorators.http import require_GET
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core.throttling import WriteThrottleMixin
from notifications import push


class PushKeysSerializer(serializers.Serializer):
    p256dh = serializers.CharField(max_length=100)
    auth = serializers.CharField(max_length=40)


class PushSubscriptionSerializer(serializers.Serializer):
    """The browser's PushSubscription.toJSON()."""

    endpoint = serializers.CharField(max_length=1024)
    keys = PushKeysSerializer()
    expirationTime = serializers.IntegerField(  # noqa: N815 (the browser's name)
        required=False, allow_null=True, min_value=0, max_value=2**53
    )  # not kept: a push service that expired it answers 410, and the row goes then

    def validate(self, attrs):
        try:
            push.check_endpoint(attrs["endpoint"])
            push.check_keys(attrs["keys"]["p256dh"], attrs["keys"]["auth"])
        except push.InvalidSubscription as exc:
            raise serializers.ValidationError({exc.field: [str(exc)]}) from None
        return attrs


class PushEndpointSerializer(serializers.Serializer):
    endpoint = serializers.CharField(max_length=1024)


class MyPushSubscriptionView(WriteThrottleMixin, APIView):
    """The caller's browsers that take notices by Web Push."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_scopes = {"post": "push_subscriptions", "delete": "push_subscriptions"}

    @extend_schema(request=PushSubscriptionSerializer,
                   responses={200: PushEndpointSerializer, 201: PushEndpointSerializer})  # fmt: skip
    def post(self, request):
        body = PushSubscriptionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        sub, created = push.save_subscription(
            user=request.user, endpoint=data["endpoint"], p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"], user_agent=request.headers.get("User-Agent", ""),
        )  # fmt: skip
        return Response({"endpoint": sub.endpoint},
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)  # fmt: skip

    @extend_schema(request=PushEndpointSerializer, responses={204: None})
    def delete(self, request):
        body = PushEndpointSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if not push.remove_subscription(
            user=request.user, endpoint=body.validated_data["endpoint"]
        ):
            raise Http404  # none of hers (another person's is left alone)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _worker_source() -> bytes:
    found = finders.find("js/push-sw.js")  # the source (collected or not), a few hundred bytes
    with open(found, "rb") as source:
        return source.read()


@require_GET
def service_worker(request):
    response = HttpResponse(_worker_source(), content_type="application/javascript; charset=utf-8")
    # Served at /push-sw.js, the header lets it take the whole site as its scope.
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # a new version reaches browsers at once
    return response
