"""The ASGI entry point (the Procfile serves it with gunicorn's uvicorn workers): Django's own
handler, with the ASGI lifespan protocol answered around it.

REST views are sync: Django runs them on the request's thread. Streams and long-polls are async
views (games/api/streams.py) that wait on the event loop and read the database on a few threads of
their own (games.realtime.live.run_sync), so a waiting client holds no database connection.
"""
import os

from django.core.asgi import get_asgi_application

from config.gcfreeze import freeze_web_heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()


async def application(scope, receive, send):
    """Django's application, and the lifespan messages it does not take (ASGI's lifespan protocol).

    At start, subscribe to live updates: streams find the hub ready, and REST requests may trust
    remembered tokens since revocations are heard (games.api.auth.TokenAuthentication: the token
    lookup was 8% of the web server's time under the move benchmark). Redis down at start delays
    it two seconds at most; the hub keeps trying on its own."""
    if scope["type"] != "lifespan":
        return await django_application(scope, receive, send)
    from games.realtime import live

    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await live.hub()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


freeze_web_heap()
