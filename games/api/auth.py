"""How API requests authenticate: the token in the header, through the process's memory of it.

Kept apart from the views: REST_FRAMEWORK names these classes, and DRF imports them while
`rest_framework.views` is still loading.
"""

from __future__ import annotations

from django.db import router
from django.utils import translation
from rest_framework import authentication

from accounts.tokens import HashedTokenAuthentication
from games.realtime import tokens


def speak(request, found):
    """The account's own language, once the request's user is known: LocaleMiddleware chose one
    from Accept-Language before any view ran, and DRF authenticates inside the view, so an
    account's choice (PUT /accounts/preferences/) takes over here, for the rest of the request
    and its Content-Language. `found` is what `authenticate` returns: (user, auth) or None."""
    language = getattr(found[0], "language", "") if found else ""
    if language:
        translation.activate(language)
        # Remembered by the request too: a stream or a long-poll answered on the event loop
        # (games.api.streams) was authenticated on a thread, whose activation stays there.
        getattr(request, "_request", request).LANGUAGE_CODE = translation.get_language()
    return found


def _clone(instance):
    """A fresh instance with the same column values, as if loaded anew (`Model.from_db`; copy.copy
    pickles the instance's state: profiled at 4% of the server's time under the streams
    benchmark)."""
    model = type(instance)
    fields = model._meta.concrete_fields
    return model.from_db(router.db_for_read(model), None, [getattr(instance, f.attname) for f in fields])


class CachedTokenAuthentication(HashedTokenAuthentication):
    """The header's token, looked up once per LIVE_AUTH_CACHE_SECONDS per process (games.realtime.tokens):
    a long-poll client comes back after every move, a stream after every reconnect. A revoked,
    expired or changed token is forgotten at once in every process (games.realtime.tokens.connect)."""

    def authenticate(self, request):
        return speak(request, super().authenticate(request))

    def authenticate_credentials(self, key):
        return tokens.cached_token(key, super().authenticate_credentials)


class SessionAuthentication(authentication.SessionAuthentication):
    """The browsable API's and the admin's session, speaking its account's language."""

    def authenticate(self, request):
        return speak(request, super().authenticate(request))


class TokenAuthentication(HashedTokenAuthentication):
    """The REST views' token check (REST_FRAMEWORK's default): the process's remembered token
    while it hears revocations (under ASGI its hub is subscribed, config.asgi starts one; under
    WSGI the hub on a thread of its own is, hub.listen_for_revocations), the database otherwise. The lookup
    is a third of a small request's CPU under WSGI (docs/architecture.md)."""

    def authenticate(self, request):
        return speak(request, super().authenticate(request))

    def authenticate_credentials(self, key):
        if tokens.hearing_revocations():
            user, token = tokens.cached_token(key, super().authenticate_credentials)
            # Copies: a view may change its request.user (then save it, or not); the remembered
            # one stays as the database has it.
            user, token = _clone(user), _clone(token)
            token.user = user
            return user, token
        return super().authenticate_credentials(key)
