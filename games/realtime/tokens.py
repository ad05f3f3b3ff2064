"""Token -> user for waiters, remembered per process.

Streams and long-polls authenticate every cycle; `cached_token` keeps token -> user for
LIVE_AUTH_CACHE_SECONDS per process, forgotten at once everywhere when a token is deleted or a
user saved (a message on the `revoked` channel), and on every reconnect of the hub
(games.realtime.hub, which tells this module whether the process hears revocations now).
"""

from __future__ import annotations

import time
from typing import Callable

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.realtime.channels import revoked_channel
from games.realtime.memory import Memory
from games.realtime.news import publish


# ---------------------------------------------------------------------------------------------
# Token -> user for waiters, per process
# ---------------------------------------------------------------------------------------------
_tokens = Memory(10_000)  # token key -> (until, user, token)
_token_ids = Memory(10_000)  # token id -> until: read from the database since the last revocation
_hearing: set[int] = set()  # the hubs (and revocation listeners) of this process subscribed now
_forgotten = 0  # how many times this process forgot every token (a revocation, a reconnection)


def hears(owner: int) -> None:
    """A hub (`owner`, its id) of this process subscribed: revocations reach the process now."""
    _hearing.add(owner)


def deaf(owner: int) -> None:
    """That hub lost its subscription: what is revoked meanwhile may not reach the process."""
    _hearing.discard(owner)


def hearing_revocations() -> bool:
    """Whether this process hears revocations now (a hub is subscribed): only then may a request
    trust a remembered token, since a logout in another process reaches it through Redis."""
    return bool(_hearing)


def cached_token(key_: str, lookup: Callable[[str], tuple]) -> tuple:
    """`lookup(key)` (the database: (user, token)), remembered for LIVE_AUTH_CACHE_SECONDS. The
    user is shared by the requests of that token: the waiting views only read it."""
    now = time.monotonic()
    hit = _tokens.get(key_)
    if hit is None or hit[0] < now:
        forgotten = _forgotten
        user, token = lookup(key_)
        if forgotten != _forgotten:
            # A revocation was heard during the lookup, which may have read the token before it
            # committed: used this once, as a request that came a moment earlier would have.
            return user, token
        # Never remembered past the token's own expiry (a revocation is heard through Redis).
        expires = getattr(token, "expires_at", None)
        left = (expires - timezone.now()).total_seconds() if expires is not None else float("inf")
        hit = (now + min(settings.LIVE_AUTH_CACHE_SECONDS, left), user, token)
        _tokens[key_] = hit
        if getattr(token, "pk", None) is not None:
            _token_ids[token.pk] = hit[0]
    return hit[1], hit[2]


def remembers_valid_token(token_id: int) -> bool:
    """Whether the token is still valid, known without a query: this process hears revocations,
    and read the token from the database since the last one it heard (any revocation forgets
    every token), within LIVE_AUTH_CACHE_SECONDS and the token's own expiry. A long-poll asks
    this before it delivers each move (games.api.streams.guard): the query it saves was 15% of
    the live process's time under the streams benchmark."""
    if not _hearing:
        return False
    until = _token_ids.get(token_id)
    return until is not None and until >= time.monotonic()


def forget_tokens() -> None:
    global _forgotten
    _forgotten += 1
    _tokens.clear()
    _token_ids.clear()


def _revoked(sender=None, **kwargs) -> None:
    if kwargs.get("created"):
        return  # a new token or user takes nothing from anyone
    if kwargs.get("update_fields") == frozenset({"last_login"}):
        return  # a login changes nothing a token grants
    forget_tokens()
    transaction.on_commit(lambda: publish([(revoked_channel(), "")]))


def connect() -> None:
    """Forget cached tokens in every process when a token is revoked or changed (its expiry
    moved) or a user changes (deactivated, deleted)."""
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_delete, post_save

    from accounts.models import AuthToken

    post_delete.connect(_revoked, sender=AuthToken, dispatch_uid="darkroom-live-token-deleted")
    post_save.connect(_revoked, sender=AuthToken, dispatch_uid="darkroom-live-token-saved")
    post_save.connect(_revoked, sender=get_user_model(), dispatch_uid="darkroom-live-user-saved")
    post_delete.connect(_revoked, sender=get_user_model(), dispatch_uid="darkroom-live-user-deleted")
