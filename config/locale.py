"""The `live` process's language (config/live_settings.py): Django's LocaleMiddleware, run inline.

`web` runs LocaleMiddleware itself. It is a sync middleware, which under ASGI would send every
stream and long-poll through a thread twice (config/live_settings.py says why `live` runs none);
its documented hooks are pure header work, so this runs them on the event loop: the same choice
from Accept-Language, the same Content-Language and Vary. An account's own language takes over
once the stream has authenticated its caller (games.api.auth), as on `web`.
"""

from __future__ import annotations

from django.conf import settings
from django.middleware.locale import LocaleMiddleware
from django.utils import translation

from config.middleware import HybridMiddleware


class LiveLocaleMiddleware(HybridMiddleware):
    def __init__(self, get_response):
        super().__init__(get_response)
        self.locale = LocaleMiddleware(get_response)

    def before(self, request):
        self.locale.process_request(request)

    def after(self, request, response, state):
        return self.locale.process_response(request, response)


class AccountLanguageMiddleware:
    """The signed-in account's own language (User.language, PUT /accounts/preferences/) for the
    pages Django renders from a session: the admin above all. LocaleMiddleware, before it, chose
    from Accept-Language; this runs after AuthenticationMiddleware, once the session's user is
    known, and LocaleMiddleware's response hook then says the account's language in
    Content-Language. The API does the same in its authentication (games.api.auth), where DRF
    knows the caller. A request without a session cookie has no account here and costs nothing."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if settings.SESSION_COOKIE_NAME in request.COOKIES:
            language = getattr(request.user, "language", "")
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)
