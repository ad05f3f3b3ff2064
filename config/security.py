"""The `live` process's host check, HTTPS redirect and security headers (config/live_settings.py).

`web` gets them from Django's CommonMiddleware (the Host header against ALLOWED_HOSTS) and
SecurityMiddleware (SECURE_SSL_REDIRECT, HSTS, nosniff, the referrer and opener policies). Those
are sync middlewares, which under ASGI would send every stream and long-poll through a thread
twice (config/live_settings.py says why `live` runs none). This one runs the same rules inline on
the event loop: SecurityMiddleware's own `process_request` and `process_response` (its documented
hooks, pure header work) and `HttpRequest.get_host()`, whose refusal of a host not in
ALLOWED_HOSTS Django answers 400, as on `web`.
"""

from __future__ import annotations

from django.middleware.security import SecurityMiddleware

from config.middleware import HybridMiddleware


class LiveSecurityMiddleware(HybridMiddleware):
    def __init__(self, get_response):
        super().__init__(get_response)
        self.security = SecurityMiddleware(get_response)

    def answers(self, request) -> bool:
        request.get_host()  # DisallowedHost (400) for a host not in ALLOWED_HOSTS
        return self.security.process_request(request) is not None

    def answer(self, request):
        return self.security.process_request(request)  # the redirect to HTTPS

    def after(self, request, response, state):
        return self.security.process_response(request, response)
