"""Stream tickets: a browser's EventSource cannot set headers, and a long-lived token never goes
in a URL, so it buys a single-use ticket (POST /stream-tickets/) and opens the stream with
?ticket= (games.api.streams)."""

from __future__ import annotations

import secrets

import redis
from django.conf import settings
from django.utils.translation import gettext
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import authentication, exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.auth import speak
from games.errors import DomainError
from games.realtime import channels


class Unavailable(DomainError):
    status, code = 503, "unavailable"


def _ticket_key(ticket: str) -> str:
    return channels.key("ticket", ticket)


class TicketAuthentication(authentication.BaseAuthentication):
    """`?ticket=` from POST /stream-tickets/: short-lived, and consumed by its first use."""

    def authenticate(self, request):
        ticket = request.query_params.get("ticket")
        if not ticket:
            return None
        try:
            found = channels.client().getdel(_ticket_key(ticket[:100]))
        except redis.RedisError:
            raise exceptions.AuthenticationFailed(
                gettext("stream tickets are unavailable just now; send the Authorization header")
            ) from None
        from accounts import tokens
        from accounts.models import User

        # "user:token": a ticket is worth no more than the token it was bought with, so one
        # bought before that token was revoked (or expired) opens nothing.
        user_id, _, token_id = (found.decode() if isinstance(found, bytes) else found or "").partition(":")
        user = None
        if user_id and tokens.still_valid(int(token_id) if token_id else None):
            user = User.objects.filter(pk=int(user_id), is_active=True).first()
        if user is None:
            raise exceptions.AuthenticationFailed(gettext("unknown, used or expired stream ticket"))
        return speak(request, (user, int(token_id) if token_id else None))

    def authenticate_header(self, request):
        return "Token"


class TicketScheme(OpenApiAuthenticationExtension):
    target_class = TicketAuthentication
    name = "streamTicket"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "query",
            "name": "ticket",
            "description": "from POST /api/v1/stream-tickets/; single use, short-lived",
        }


class SessionScheme(OpenApiAuthenticationExtension):
    """The admin's session cookie, as drf-spectacular documents DRF's own session class (which
    it matches exactly, not its subclasses)."""

    target_class = "games.api.auth.SessionAuthentication"
    name = "cookieAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "cookie", "name": settings.SESSION_COOKIE_NAME}


class TicketOut(serializers.Serializer):
    ticket = serializers.CharField()
    expires_in = serializers.IntegerField(help_text="seconds; the ticket also ends at its first use")


class StreamTicketsView(APIView):
    @extend_schema(
        request=None,
        responses={201: TicketOut, 503: OpenApiResponse(description="unavailable")},
        summary="A single-use ticket to open a stream with ?ticket= (for EventSource)",
    )
    def post(self, request):
        ticket, ttl = secrets.token_urlsafe(24), settings.STREAM_TICKET_SECONDS
        try:
            token_id = getattr(request.auth, "pk", "") if request.auth is not None else ""
            channels.client().set(_ticket_key(ticket), f"{request.user.pk}:{token_id}", ex=ttl)
        except redis.RedisError:
            raise Unavailable(
                gettext("stream tickets are unavailable just now; send the Authorization header, or poll /events/")
            ) from None
        return Response({"ticket": ticket, "expires_in": ttl}, status=status.HTTP_201_CREATED)
