"""The single page of the web client. It carries no data: everything comes from /api/v1/ in the
browser, with the player's token, exactly as a third-party client would get it."""

from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET
from django.views.generic import TemplateView

# Every module app.js imports (directly or not), named in the page so the browser asks for them
# all at once instead of one import level at a time (the table modules load with their game).
MODULES = [
    "app",
    "api",
    "live",
    "svg",
    "i18n",
    "i18n/en",
    "social",
    "community",
    "rules",
    "push",
    "front",
    "create",
    "story",
    "disputes",
    "standing",
    "tournaments",
    "ladders",
]

index = require_GET(
    TemplateView.as_view(
        template_name="web/index.html", extra_context={"modules": [f"web/{name}.js" for name in MODULES]}
    )
)


class ServiceWorker(TemplateView):
    """The push service worker at /sw.js: a worker controls only the paths under its own, so it
    is served from the root (a static file's /static/... path could not control the site's pages),
    with the header that allows the root scope even if it is ever moved."""

    template_name = "web/sw.js"
    content_type = "text/javascript; charset=utf-8"

    def render_to_response(self, context, **kwargs):
        response = super().render_to_response(context, **kwargs)
        response["Service-Worker-Allowed"] = "/"
        return response


# Browsers check for a new worker at least daily; a short cache keeps updates quick.
service_worker = require_GET(cache_control(max_age=300)(ServiceWorker.as_view()))


class Manifest(TemplateView):
    """The web app manifest (/manifest.webmanifest): what a phone needs to add the site to its home
    screen as an app (on iPhones, what lets Web Push reach a player at all)."""

    template_name = "web/manifest.webmanifest"
    content_type = "application/manifest+json"


manifest = require_GET(cache_control(max_age=3600)(Manifest.as_view()))
