"""How API requests authenticate: the token in the header, through the process's memory of it.

Kept apart from the views: REST_FRAMEWORK names these classes, and DRF imports them while
`rest_framework.views` is still loading.
"""
from __future__ import annotations

from accounts.tokens import HashedTokenAuthentication
from games.realtime import live


def _clone(instance):
    """A fresh instance with the same column values (copy.copy pickles the instance's state:
    profiled at 4% of the server's time under the streams benchmark)."""
    fields = instance._meta.concrete_fields
    return type(instance).from_db(instance._state.db, None, [getattr(instance, f.attname) for f in fields])


class CachedTokenAuthentication(HashedTokenAuthentication):
    """The header's token, looked up once per LIVE_AUTH_CACHE_SECONDS per process (games.realtime.live):
    a long-poll client comes back after every move, a stream after every reconnect. A revoked,
    expired or changed token is forgotten at once in every process (games.realtime.live.connect)."""

    def authenticate_credentials(self, key):
        return live.cached_token(key, super().authenticate_credentials)


class TokenAuthentication(HashedTokenAuthentication):
    """The REST views' token check (REST_FRAMEWORK's default): the process's remembered token
    while it hears revocations (under ASGI its hub is subscribed, config.asgi starts one; under
    WSGI a thread of its own is, live.listen_for_revocations), the database otherwise. The lookup
    is a third of a small request's CPU under WSGI (docs/architecture.md)."""

    def authenticate_credentials(self, key):
        if live.hearing_revocations():
            user, token = live.cached_token(key, super().authenticate_credentials)
            # Copies: a view may change its request.user (then save it, or not); the remembered
            # one stays as the database has it.
            user, token = _clone(user), _clone(token)
            type(token).user.field.set_cached_value(token, user)
            return user, token
        return super().authenticate_credentials(key)
