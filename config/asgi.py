"""The ASGI entry point (the Procfile serves it with gunicorn's uvicorn workers).

Django gives every request a thread of its own for sync code ("thread-sensitive context") and
keeps it until the response ends. For a stream or a long-poll that is one idle thread per waiting
client, so those paths go without: their views are async and run their database reads on the few
threads of games.live.run_sync. Middleware hooks run inline (config/middleware.py,
config/builtin_middleware.py): none goes to a thread, but for a session save.
"""
import os

from django.core.asgi import get_asgi_application
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
get_asgi_application()  # django.setup()

WAITING_SUFFIXES = ("/stream/", "/events/")


class Handler(ASGIHandler):
    def load_middleware(self, is_async=False):
        # Django's own middlewares, as named in MIDDLEWARE, with their hooks inline
        # (config/builtin_middleware.py) rather than two thread hops each per request.
        from django.conf import settings

        from config.builtin_middleware import INSTEAD

        named = settings.MIDDLEWARE
        settings.MIDDLEWARE = [INSTEAD.get(path, path) for path in named]
        try:
            super().load_middleware(is_async)
        finally:
            settings.MIDDLEWARE = named

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["path"].endswith(WAITING_SUFFIXES):
            await self.handle(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)


application = Handler()
