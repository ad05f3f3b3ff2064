"""Settings of the `live` process: the site's settings, serving only the requests that wait (SSE
streams and long-polls) behind the same proxy as `web` (deploy/nginx.conf.template).

Under ASGI, Django runs every middleware that is not async-native (all of its own: sessions,
CSRF, auth, messages, ...) on a thread, twice a request (config/asgi.py lends it a kept one). A
long-poll is a new request for every move it hears, so those trips were most of its cost
(docs/architecture.md, "Optimisations that stay"). None of them does anything for these routes:
they authenticate by token or ticket, set no cookie and render no page. Here only the
async-native middlewares run; the proxy adds the security headers to these answers.
"""
from config.settings import *  # noqa: F401,F403
from config.settings import MIDDLEWARE

ROOT_URLCONF = "config.live_urls"
MIDDLEWARE = [name for name in MIDDLEWARE if not name.startswith("django.")]
# The admin is not served here, so the middlewares it needs are not run here either.
SILENCED_SYSTEM_CHECKS = ["admin.E408", "admin.E409", "admin.E410"]
