"""HTTP for what guards an account: tokens and logout, passwords, export and deletion."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts import services
from accounts.models import AuthToken
from games.api.serializers import ErrorOut, StrictInput, parse


# ---------------------------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------------------------
class AuthTokenOut(serializers.Serializer):
    id = serializers.IntegerField()
    device = serializers.CharField()
    prefix = serializers.CharField(help_text="the key's first 8 characters")
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(help_text="to the nearest 5 minutes")
    expires_at = serializers.DateTimeField()
    current = serializers.BooleanField(help_text="the token this request came with")


class TokensView(APIView):
    @extend_schema(responses=AuthTokenOut(many=True), summary="Your tokens, one per device")
    def get(self, request):
        current = request.auth.pk if isinstance(request.auth, AuthToken) else None
        listed = list(request.user.auth_tokens.order_by("-last_used_at", "-pk"))
        for token in listed:
            token.current = token.pk == current
        return Response(AuthTokenOut(listed, many=True).data)


class TokenRevokeView(APIView):
    @extend_schema(responses={204: None, 404: ErrorOut}, summary="Revoke one of your tokens")
    def delete(self, request, token_id):
        services.revoke_token(request.user, token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutView(APIView):
    @extend_schema(request=None, responses={204: None}, summary="Log out: revoke the token of this request")
    def post(self, request):
        services.logout(request.user, request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


# ---------------------------------------------------------------------------------------------
# Passwords
# ---------------------------------------------------------------------------------------------
class PasswordChangeIn(StrictInput):
    old_password = serializers.CharField(max_length=128, style={"input_type": "password"})
    new_password = serializers.CharField(max_length=128, style={"input_type": "password"})


class PasswordView(APIView):
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    @extend_schema(
        request=PasswordChangeIn,
        responses={204: None, 400: ErrorOut},
        summary="Change your password; your other tokens are revoked",
    )
    def post(self, request):
        data = parse(PasswordChangeIn, request.data)
        services.change_password(request.user, request.auth, data["old_password"], data["new_password"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class ResetRequestIn(StrictInput):
    email = serializers.EmailField()


class AnonymousAuthView(APIView):
    """For someone who cannot log in (a forgotten password): no token, the auth throttle."""

    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"


class AcceptedOut(serializers.Serializer):
    detail = serializers.CharField()


class PasswordResetView(AnonymousAuthView):
    @extend_schema(
        request=ResetRequestIn,
        responses={202: AcceptedOut, 400: ErrorOut},
        summary="Mail a password reset link (the same answer whether the address is known or not)",
    )
    def post(self, request):
        data = parse(ResetRequestIn, request.data)
        services.request_password_reset(data["email"])
        return Response(
            {"detail": "if an account has this address, a reset link is on its way"}, status=status.HTTP_202_ACCEPTED
        )


class ResetConfirmIn(StrictInput):
    uid = serializers.CharField(max_length=64)
    token = serializers.CharField(max_length=128)
    new_password = serializers.CharField(max_length=128, style={"input_type": "password"})


class PasswordResetConfirmView(AnonymousAuthView):
    @extend_schema(
        request=ResetConfirmIn,
        responses={204: None, 400: ErrorOut},
        summary="Set a new password with the mailed uid and token; every token is revoked",
    )
    def post(self, request):
        data = parse(ResetConfirmIn, request.data)
        services.reset_password(data["uid"], data["token"], data["new_password"])
        return Response(status=status.HTTP_204_NO_CONTENT)


# ---------------------------------------------------------------------------------------------
# Leaving
# ---------------------------------------------------------------------------------------------
@extend_schema_field(
    {
        "type": "object",
        "description": "kind of data -> what is held of it",
        "additionalProperties": {
            "anyOf": [
                {"type": "object", "additionalProperties": True},
                {
                    "type": "array",
                    "items": {
                        "anyOf": [  # records, or ids (mutes: game ids)
                            {"type": "object", "additionalProperties": True},
                            {"type": "string"},
                        ]
                    },
                },
                {"type": "null"},
            ]
        },
    }
)
class HeldDataField(serializers.JSONField):
    pass


class ExportOut(serializers.Serializer):
    exported_at = serializers.DateTimeField()
    data = HeldDataField(
        help_text="one entry per kind of data held (account, webhooks, vacations, "
        "tokens, ratings, notifications, seats, and whatever other apps declare)"
    )


class ExportView(APIView):
    @extend_schema(responses=ExportOut, summary="Everything the server holds about you, as JSON")
    def get(self, request):
        return Response(services.export_data(request.user))


class DeleteAccountIn(StrictInput):
    password = serializers.CharField(max_length=128, style={"input_type": "password"})


class DeleteAccountView(APIView):
    @extend_schema(
        request=DeleteAccountIn,
        responses={204: None, 400: ErrorOut, 409: ErrorOut},
        summary="Delete your account: personal data erased, your seats kept under an anonymous name",
    )
    def post(self, request):
        data = parse(DeleteAccountIn, request.data)
        services.delete_account(request.user, data["password"])
        return Response(status=status.HTTP_204_NO_CONTENT)
