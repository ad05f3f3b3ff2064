"""API tokens: one per device, stored as a SHA-256 digest, expiring after TOKEN_TTL_DAYS unused.

Clients send `Authorization: Token <key>` as they always have (the DRF tokens of before were
turned into hashed tokens by accounts migration 0004, keys unchanged). Every channel that takes a
token authenticates it here: the REST views, the long-poll, the streams and their tickets.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from rest_framework import authentication, exceptions

from accounts.models import AuthToken

# last_used_at (and so the expiry, which slides with it) is written at most this often per token:
# an authenticated request costs no write of its own.
TOUCH_EVERY = timedelta(minutes=5)


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def ttl() -> timedelta:
    return timedelta(days=settings.TOKEN_TTL_DAYS)


def issue(user, device: str = "", replaces: bool = True) -> tuple[AuthToken, str]:
    """A new token listed as `device`; the key is returned once and never stored. With
    `replaces` (an explicit device id), the device's older token goes; without, every login is a
    token of its own. The least recently used go beyond TOKENS_PER_USER."""
    key = secrets.token_hex(32)
    now = timezone.now()
    device = (device or "").strip()[:100]
    with transaction.atomic():
        if device and replaces:
            AuthToken.objects.filter(user=user, device=device).delete()
        token = AuthToken.objects.create(
            user=user,
            digest=digest(key),
            prefix=key[:8],
            device=device,
            created_at=now,
            last_used_at=now,
            expires_at=now + ttl(),
        )
        stale = (
            AuthToken.objects.filter(user=user)
            .order_by("-last_used_at", "-pk")
            .values_list("pk", flat=True)[settings.TOKENS_PER_USER :]
        )
        AuthToken.objects.filter(pk__in=list(stale)).delete()
    return token, key


def find(key: str) -> AuthToken | None:
    """The live token with this key (its user loaded), or None: unknown, revoked or expired."""
    now = timezone.now()
    token = _live_token(digest(key), now)
    if token is None or not token.user.is_active:
        return None
    if now - token.last_used_at >= TOUCH_EVERY:
        AuthToken.objects.filter(pk=token.pk).update(last_used_at=now, expires_at=now + ttl())
        token.last_used_at, token.expires_at = now, now + ttl()
    return token


def _live_token(digest_: str, now) -> AuthToken | None:
    # Every authenticated request runs this: the token and its user in one query, by the digest's
    # index (without the model's ordering, which the planner may walk another index for).
    found = list(AuthToken.objects.select_related("user").filter(digest=digest_, expires_at__gt=now).order_by()[:1])
    return found[0] if found else None


def still_valid(token_id: int | None) -> bool:
    # Every open stream asks this once per heartbeat.
    return (
        token_id is None
        or AuthToken.objects.filter(pk=token_id, expires_at__gt=timezone.now(), user__is_active=True).exists()
    )


class HashedTokenAuthentication(authentication.TokenAuthentication):
    """`Authorization: Token <key>`, checked against the digests; `request.auth` is the AuthToken."""

    def authenticate_credentials(self, key):
        token = find(key)
        if token is None:
            raise exceptions.AuthenticationFailed(gettext("invalid, revoked or expired token"))
        return token.user, token
