"""Settings of the `live` process: the site's settings, serving only the requests that wait (SSE
streams and long-polls) behind the same proxy as `web` (deploy/nginx.conf.template).

Under ASGI, Django runs every middleware that is not async-native (all of its own: sessions,
CSRF, auth, messages, ...) on a thread, twice a request (config/asgi.py lends it a kept one). A
long-poll is a new request for every move it hears, so those trips were most of its cost
(docs/architecture.md, "Optimisations that stay"). None of them does anything for these routes:
they authenticate by token or ticket, set no cookie and render no page. Here only the
async-native middlewares run (WhiteNoise, sync-only, serves static files, which live has none
of). The host check, the HTTPS redirect and the security headers (HSTS among them) that
CommonMiddleware and SecurityMiddleware give `web` come from config.security's
LiveSecurityMiddleware, in SecurityMiddleware's place: the same settings, the same answers,
inline on the event loop; the language (Accept-Language, Content-Language) from
config.locale's LiveLocaleMiddleware, in LocaleMiddleware's place.
"""

from config.settings import *  # noqa: F401,F403
from config.settings import MIDDLEWARE

ROOT_URLCONF = "config.live_urls"
# Django's own that `live` needs, run inline on the event loop by a middleware of ours.
_INLINE = {
    "django.middleware.security.SecurityMiddleware": "config.security.LiveSecurityMiddleware",
    "django.middleware.locale.LocaleMiddleware": "config.locale.LiveLocaleMiddleware",
}
# The account's language from a session (the admin's) too: `live` has no sessions, and its
# callers' accounts speak through their authentication (games.api.auth).
_SESSIONS_ONLY = {"config.locale.AccountLanguageMiddleware"}
MIDDLEWARE = [
    _INLINE.get(name, name)
    for name in MIDDLEWARE
    if name in _INLINE or not (name.startswith(("django.", "whitenoise.")) or name in _SESSIONS_ONLY)
]
# The admin is not served here, so the middlewares it needs are not run here either.
SILENCED_SYSTEM_CHECKS = ["admin.E408", "admin.E409", "admin.E410"]
