"""The ASGI entry point (the Procfile serves it with gunicorn's uvicorn workers).

Django gives every request a thread of its own for sync code ("thread-sensitive context") and
keeps it until the response ends. For a stream or a long-poll that is one idle thread per waiting
client, so those paths go without: their views are async and run their database reads on the few
threads of games.live.run_sync; the little sync work left (middleware hooks) runs on Django's one
shared sync thread.
"""
import os

from django.core.asgi import get_asgi_application
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
get_asgi_application()  # django.setup()

WAITING_SUFFIXES = ("/stream/", "/events/")


class Handler(ASGIHandler):
    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["path"].endswith(WAITING_SUFFIXES):
            await self.handle(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)


application = Handler()
