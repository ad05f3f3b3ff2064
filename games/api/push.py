"""Push endpoints (/api/v1/push/...): a browser's Web Push subscription, a mobile app's device
token, and the key a browser subscribes with. accounts.services behind them."""

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from games.api.serializers import ErrorOut, StrictInput, parse


class PushKeysIn(StrictInput):
    p256dh = serializers.CharField(max_length=200, help_text="the browser's P-256 public key, base64url")
    auth = serializers.CharField(max_length=64, help_text="the browser's 16-byte auth secret, base64url")


class SubscriptionIn(StrictInput):
    """What PushSubscription.toJSON() gives in a browser (expirationTime is ignored)."""

    endpoint = serializers.URLField(max_length=1000)
    keys = PushKeysIn()
    expirationTime = serializers.IntegerField(required=False, allow_null=True)  # noqa: N815 (the browser's name)


class SubscriptionOut(serializers.Serializer):
    id = serializers.IntegerField()
    endpoint = serializers.CharField()
    user_agent = serializers.CharField()
    created_at = serializers.DateTimeField()


class UnsubscribeIn(StrictInput):
    # Only looked up: any string names a subscription or none (404). Any but an empty one, and one
    # holding a NUL, which PostgreSQL's text cannot hold: the document says so, as for DeviceIn.name.
    endpoint = serializers.RegexField(r"^[^\x00]*$", min_length=1, max_length=1000)


class DeviceIn(StrictInput):
    platform = serializers.ChoiceField(choices=["apns", "fcm"])
    # The tokens APNs (hex) and FCM (letters, digits, "_", "-", ":", ".") hand out: the document says
    # so, and nothing else (a NUL, say) is schema-valid.
    token = serializers.RegexField(r"^[A-Za-z0-9_:.\-]+$", max_length=512)
    name = serializers.RegexField(r"^[^\x00]*$", max_length=100, required=False, default="", allow_blank=True)


class DeviceOut(serializers.Serializer):
    id = serializers.IntegerField()
    platform = serializers.CharField()
    token = serializers.CharField()
    name = serializers.CharField()
    created_at = serializers.DateTimeField()


class VapidOut(serializers.Serializer):
    public_key = serializers.CharField(
        allow_null=True,
        help_text=("base64url: the browser's applicationServerKey; null when this server sends no Web Push"),
    )


class VapidKeyView(APIView):
    @extend_schema(responses=VapidOut, summary="The key browsers subscribe with (VAPID)")
    def get(self, request):
        return Response({"public_key": settings.VAPID_PUBLIC_KEY or None})


class SubscriptionsView(APIView):
    @extend_schema(responses=SubscriptionOut(many=True), summary="Your browsers' push subscriptions")
    def get(self, request):
        return Response(SubscriptionOut(request.user.push_subscriptions.order_by("pk"), many=True).data)

    @extend_schema(
        request=SubscriptionIn,
        responses={200: SubscriptionOut, 201: SubscriptionOut, 400: ErrorOut},
        summary="Register a browser's push subscription (201 new, 200 already there)",
    )
    def post(self, request):
        data = parse(SubscriptionIn, request.data)
        sub, created = services.add_push_subscription(
            request.user,
            data["endpoint"],
            data["keys"]["p256dh"],
            data["keys"]["auth"],
            request.headers.get("User-Agent", ""),
        )
        return Response(SubscriptionOut(sub).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class UnsubscribeView(APIView):
    @extend_schema(
        request=UnsubscribeIn,
        responses={204: None, 400: ErrorOut, 404: ErrorOut},
        summary="Unregister a browser by its endpoint (what PushSubscription.unsubscribe() left)",
    )
    def post(self, request):
        data = parse(UnsubscribeIn, request.data)
        services.remove_push_subscription(request.user, endpoint=data["endpoint"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class SubscriptionView(APIView):
    @extend_schema(responses={204: None, 404: ErrorOut}, summary="Unregister a browser by id")
    def delete(self, request, subscription_id):
        services.remove_push_subscription(request.user, subscription_id=subscription_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DevicesView(APIView):
    @extend_schema(responses=DeviceOut(many=True), summary="Your mobile devices registered for push")
    def get(self, request):
        return Response(DeviceOut(request.user.push_devices.order_by("pk"), many=True).data)

    @extend_schema(
        request=DeviceIn,
        responses={200: DeviceOut, 201: DeviceOut, 400: ErrorOut},
        summary="Register a mobile device's push token (201 new, 200 already there)",
    )
    def post(self, request):
        data = parse(DeviceIn, request.data)
        device, created = services.add_push_device(request.user, **data)
        return Response(DeviceOut(device).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class DeviceView(APIView):
    @extend_schema(responses={204: None, 404: ErrorOut}, summary="Unregister a mobile device")
    def delete(self, request, device_id):
        services.remove_push_device(request.user, device_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
