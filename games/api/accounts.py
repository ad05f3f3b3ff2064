"""The accounts' endpoints: registration, tokens, your profile, preferences, webhooks, vacations."""

import hashlib

import redis
from django.conf import settings
from django.core.cache import cache
from django.utils import translation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts import services
from config.throttling import WindowThrottle
from games.api.serializers import ErrorOut, StrictInput, kind_typed, parse
from games.play import vacations


DEVICE_HELP = (
    "a stable id of this device or client install (listed in /accounts/tokens/): logging "
    "in again with the same id replaces its token. Without one every login is a new token, "
    "listed under the User-Agent"
)


def device_of(request, data) -> tuple[str, bool]:
    """(what the token is listed as, whether it names a device whose older token it replaces).
    Only an explicit id is a device: two laptops with the same browser send the same User-Agent."""
    if data.get("device"):
        return data["device"], True
    return request.headers.get("User-Agent", "")[:100], False


class LoginAccountThrottle(WindowThrottle):
    """Wrong logins per account, whatever addresses they come from: a ceiling high enough for an
    owner who mistypes, low enough that a password guessed from many addresses is slowed
    (THROTTLE_LOGIN_ACCOUNT). Each attempt is counted in Redis as it arrives (INCR: concurrent
    attempts cannot pass the limit together); a login that succeeds gives its count back."""

    scope = "login_account"

    def get_rate(self):
        return settings.THROTTLE_LOGIN_ACCOUNT

    def account(self, request) -> str | None:
        data = request.data if isinstance(request.data, dict) else {}
        username = data.get("username")
        if not isinstance(username, str) or not username:
            return None
        return hashlib.sha256(username.strip().lower().encode()).hexdigest()

    def get_cache_key(self, request, view):
        account = self.account(request)
        return None if account is None else self.cache_format % {"scope": self.scope, "ident": account}

    def give_back(self) -> None:
        if getattr(self, "key", None) is None:
            return
        try:
            cache.decr(self.key)
        except (ValueError, redis.RedisError):
            pass  # the window ended meanwhile, or Redis is away: nothing to give back


class LoginAddressThrottle(LoginAccountThrottle):
    """Wrong logins per (account, address), the lock an account's owner meets only for their own
    mistakes: ten guesses from elsewhere do not lock them out (THROTTLE_LOGIN_ACCOUNT_ADDRESS)."""

    scope = "login_account_address"

    def get_rate(self):
        return settings.THROTTLE_LOGIN_ACCOUNT_ADDRESS

    def get_cache_key(self, request, view):
        account = self.account(request)
        if account is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": f"{account}:{self.get_ident(request)}"}


class RegisterIn(StrictInput):
    username = serializers.CharField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = serializers.CharField(max_length=128, write_only=True, style={"input_type": "password"})
    # No default in the document: '' is not an email, and a validator rejects the schema for it.
    email = serializers.EmailField(required=False, allow_blank=True)
    device = serializers.CharField(required=False, max_length=100, help_text=DEVICE_HELP)


class RegisterOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    token = serializers.CharField()


class TokenIn(StrictInput):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, style={"input_type": "password"})
    device = serializers.CharField(required=False, max_length=100, help_text=DEVICE_HELP)


class TokenOut(serializers.Serializer):
    token = serializers.CharField(help_text="send it as `Authorization: Token <token>`; shown only here")
    id = serializers.IntegerField(help_text="the token's id in /accounts/tokens/")
    expires_at = serializers.DateTimeField(help_text="moves on with use: TOKEN_TTL_DAYS after the last")


class MeOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField(help_text="empty when none was given")
    date_joined = serializers.DateTimeField()
    is_guest = serializers.BooleanField(
        help_text="a guest account (POST /accounts/guest/): it keeps "
        "its games when it registers (POST /accounts/guest/register/)"
    )
    language = serializers.ChoiceField(
        choices=services.languages(),
        allow_null=True,
        help_text="the language chosen in PUT /accounts/preferences/, or null "
        "(then each request's Accept-Language): a client can start "
        "in it without asking for the preferences",
    )

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["language"] = data["language"] or None  # an account keeps "no choice" as an empty string
        return data


class GuestIn(StrictInput):
    device = serializers.CharField(required=False, max_length=100, help_text=DEVICE_HELP)


class GuestRegisterIn(StrictInput):
    username = serializers.CharField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = serializers.CharField(max_length=128, write_only=True, style={"input_type": "password"})
    email = serializers.EmailField(required=False, allow_blank=True)


class GuestAddressThrottle(WindowThrottle):
    """Guest accounts made per address (THROTTLE_GUEST_ADDRESS): each guest gets the per-user
    limits of any account, so one address may not mint guests to multiply them."""

    scope = "guest_address"

    def get_rate(self):
        return settings.THROTTLE_GUEST_ADDRESS

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class RegisterView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    @extend_schema(request=RegisterIn, responses={201: RegisterOut, 409: ErrorOut}, summary="Create an account")
    def post(self, request):
        data = parse(RegisterIn, request.data)
        device, replaces = device_of(request, data)
        user, token = services.register(**{**data, "device": device, "replaces": replaces})
        return Response({"id": user.pk, "username": user.username, "token": token}, status=status.HTTP_201_CREATED)


class GuestView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle, GuestAddressThrottle]
    throttle_scope = "auth"

    @extend_schema(
        request=GuestIn,
        responses={201: RegisterOut, 429: ErrorOut},
        summary="Play as a guest: an account with no name to choose and no password",
    )
    def post(self, request):
        data = parse(GuestIn, request.data)
        user, token = services.start_as_guest(*device_of(request, data))
        return Response({"id": user.pk, "username": user.username, "token": token}, status=status.HTTP_201_CREATED)


class GuestRegisterView(APIView):
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    @extend_schema(
        request=GuestRegisterIn,
        responses={200: MeOut, 400: ErrorOut, 409: ErrorOut},
        summary="Register the guest you are: a name and a password, your games kept",
    )
    def post(self, request):
        data = parse(GuestRegisterIn, request.data)
        user = services.register_guest(request.user, data["username"], data["password"], data.get("email", ""))
        return Response(MeOut(user).data)


class TokenView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle, LoginAddressThrottle, LoginAccountThrottle]
    throttle_scope = "auth"

    def get_throttles(self):
        self.throttles = super().get_throttles()  # kept: a good login gives its counts back
        return self.throttles

    @extend_schema(
        request=TokenIn,
        responses={200: TokenOut, 400: ErrorOut, 429: ErrorOut},
        summary="Log in: a new API token for this device",
    )
    def post(self, request):
        data = parse(TokenIn, request.data)
        token, key = services.obtain_token(data["username"], data["password"], *device_of(request, data))
        for throttle in getattr(self, "throttles", []):
            if isinstance(throttle, LoginAccountThrottle):
                throttle.give_back()
        return Response({"token": key, "id": token.pk, "expires_at": token.expires_at})


class MeView(APIView):
    @extend_schema(responses=MeOut, summary="Who the token belongs to")
    def get(self, request):
        return Response(MeOut(request.user).data)


# ---------------------------------------------------------------------------------------------
# Notification preferences, webhooks, vacations
# ---------------------------------------------------------------------------------------------
ZONES = services.quiet_zones()


class QuietHoursIO(StrictInput):
    # HH:MM, or any ISO 8601 time (seconds are dropped, an offset is ignored: the zone is `tz`).
    start = serializers.TimeField(format="%H:%M", input_formats=["%H:%M", "iso-8601"], help_text="local time")
    end = serializers.TimeField(
        format="%H:%M",
        input_formats=["%H:%M", "iso-8601"],
        help_text="local time; before start runs across midnight; equal to start: none",
    )
    # Checked against the server's zone database rather than listed as an enum in the document:
    # ~600 names, some of which (GMT0, GMT-0, GMT+0) generated clients cannot tell apart.
    tz = serializers.CharField(max_length=64, help_text="an IANA time zone the server knows, e.g. Europe/Paris")

    def validate_tz(self, value: str) -> str:
        if value not in ZONES:
            raise serializers.ValidationError(gettext("not an IANA time zone this server knows"))
        return value


class QuietHoursOut(serializers.Serializer):
    start = serializers.RegexField(r"^\d\d:\d\d$", help_text="HH:MM, local time")
    end = serializers.RegexField(r"^\d\d:\d\d$", help_text="HH:MM, local time")
    tz = serializers.CharField(help_text="the IANA time zone")


LANGUAGE_HELP = (
    "the language the server speaks to you: error details, notices, emails and pushes "
    "(codes and keys never change); null: each request's Accept-Language"
)


class PreferencesIO(StrictInput):
    language = serializers.ChoiceField(
        choices=services.languages(), required=False, allow_null=True, help_text=LANGUAGE_HELP
    )
    channels = kind_typed("Channels")(required=False, help_text='{"your_turn": ["inbox", "email", "push"], ...}')
    email_digest_minutes = serializers.IntegerField(required=False, min_value=0, max_value=7 * 24 * 60)
    quiet_hours = QuietHoursIO(
        required=False,
        allow_null=True,
        help_text=("no push between start and end in tz (it waits for the end); null: none"),
    )


class PreferencesOut(serializers.Serializer):
    language = serializers.ChoiceField(choices=services.languages(), allow_null=True, help_text=LANGUAGE_HELP)
    channels = kind_typed("Channels")()
    email_digest_minutes = serializers.IntegerField()
    quiet_hours = QuietHoursOut(allow_null=True, help_text="no push between start and end in tz; null: none")


def preferences_out(prefs, user):
    from accounts.models import NotificationPreference

    quiet = (
        None
        if prefs.quiet_start is None or prefs.quiet_end is None
        else {
            "start": prefs.quiet_start.strftime("%H:%M"),
            "end": prefs.quiet_end.strftime("%H:%M"),
            "tz": prefs.quiet_tz,
        }
    )
    return {
        "channels": {kind: prefs.channels_for(kind) for kind in NotificationPreference.TYPES},
        "email_digest_minutes": prefs.email_digest_minutes,
        "quiet_hours": quiet,
        "language": user.language or None,
    }


class PreferencesView(APIView):
    @extend_schema(responses=PreferencesOut, summary="Your notification channels per type")
    def get(self, request):
        return Response(preferences_out(services.preferences(request.user), request.user))

    @extend_schema(request=PreferencesIO, responses={200: PreferencesOut, 400: ErrorOut})
    def put(self, request):
        data = parse(PreferencesIO, request.data)
        prefs = services.update_preferences(request.user, **data)
        if request.user.language:
            translation.activate(request.user.language)  # the answer already speaks the new choice
        return Response(preferences_out(prefs, request.user))


class WebhookIn(StrictInput):
    url = serializers.URLField(max_length=500)


class WebhookOut(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    active = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class WebhookCreatedOut(WebhookOut):
    secret = serializers.CharField(help_text="shown once: verify X-Darkroom-Signature with it")


class WebhooksView(APIView):
    @extend_schema(responses=WebhookOut(many=True), summary="Your webhooks")
    def get(self, request):
        return Response(WebhookOut(request.user.webhooks.filter(active=True), many=True).data)

    @extend_schema(
        request=WebhookIn,
        responses={201: WebhookCreatedOut},
        summary="Register a webhook: signed JSON POSTs for your notifications",
    )
    def post(self, request):
        data = parse(WebhookIn, request.data)
        hook = services.add_webhook(request.user, data["url"])
        return Response(WebhookCreatedOut(hook).data, status=status.HTTP_201_CREATED)


class WebhookView(APIView):
    @extend_schema(responses={204: None})
    def delete(self, request, webhook_id):
        services.remove_webhook(request.user, webhook_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class AttemptOut(serializers.Serializer):
    at = serializers.DateTimeField()
    ok = serializers.BooleanField()
    status_code = serializers.IntegerField(allow_null=True)
    error = serializers.CharField()
    duration_ms = serializers.IntegerField()


class DeliveryOut(serializers.Serializer):
    id = serializers.IntegerField()
    notification = serializers.IntegerField(source="notification_id")
    status = serializers.CharField()
    attempts = serializers.IntegerField()
    next_attempt_at = serializers.DateTimeField()
    last_error = serializers.CharField()
    attempt_log = AttemptOut(many=True)


class WebhookDeliveriesView(APIView):
    @extend_schema(responses=DeliveryOut(many=True), summary="Delivery attempts of one webhook")
    def get(self, request, webhook_id):
        from games.errors import NotFound

        hook = request.user.webhooks.filter(pk=webhook_id, active=True).first()
        if hook is None:
            raise NotFound(gettext("no such webhook"))
        deliveries = hook.deliveries.prefetch_related("attempt_log").order_by("-created_at")[:100]
        return Response(DeliveryOut(deliveries, many=True).data)


class VacationIn(StrictInput):
    days = serializers.FloatField(min_value=0.01, max_value=366)


class VacationOut(serializers.Serializer):
    on_vacation = serializers.BooleanField()
    until = serializers.DateTimeField(allow_null=True)
    days_per_year = serializers.IntegerField()
    days_left = serializers.FloatField()


class VacationStartedOut(serializers.Serializer):
    start = serializers.DateTimeField()
    end = serializers.DateTimeField()


class VacationView(APIView):
    @extend_schema(responses=VacationOut, summary="Your vacation: current one and days left this year")
    def get(self, request):
        from django.conf import settings
        from django.utils import timezone

        now = timezone.now()
        current = request.user.vacations.filter(start__lte=now, end__gt=now).first()
        used = services.vacation_days_used(request.user, now.year)
        return Response(
            {
                "on_vacation": current is not None,
                "until": current.end if current else None,
                "days_per_year": settings.VACATION_DAYS_PER_YEAR,
                "days_left": round(settings.VACATION_DAYS_PER_YEAR - used, 2),
            }
        )

    @extend_schema(
        request=VacationIn, responses={201: VacationStartedOut}, summary="Start a vacation now: your clocks stop"
    )
    def post(self, request):
        data = parse(VacationIn, request.data)
        vacation = vacations.start_vacation(request.user, data["days"])
        return Response({"start": vacation.start, "end": vacation.end}, status=status.HTTP_201_CREATED)

    @extend_schema(responses={204: None, 404: ErrorOut}, summary="End your vacation now")
    def delete(self, request):
        vacations.end_vacation(request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
