"""The async entry of the views that wait: each DRF view runs off the event loop, and what it
answers (a stream, or a long-poll with nothing to send yet) goes on on the loop."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.handlers.wsgi import WSGIRequest
from django.utils import translation
from rest_framework import renderers
from rest_framework.views import APIView

from accounts.tokens import HashedTokenAuthentication
from games.api.auth import CachedTokenAuthentication
from games.api.streams.game import GameStreamView
from games.api.streams.long_poll import ENDED_ANSWERS, Waiting, poll_ended, wait_for_news
from games.api.streams.user import UserStreamView
from games.realtime import live


def asynchronous(view_class: type[APIView]):
    """An async Django view running `view_class` off the loop. A stream it answers runs on the
    loop; a long-poll with nothing to send yet (`Waiting`) waits there, without a thread, for
    news or the end of its wait, then answers with what it found."""
    sync_view = view_class.as_view(authentication_classes=_cached(view_class.authentication_classes))

    async def view(request, **kwargs):
        # A sync handler's request (Django's test client): its thread waits on us, so reads run
        # there (live.run_sync). Not reset: a stream's iterator runs after we return, in this task.
        live.sync_caller.set(isinstance(request, WSGIRequest))
        the_hub = await live.hub()
        # Before the view reads the game: whether its channel is heard from then on.
        epoch = the_hub.since(live.channel(kwargs["game_id"])) if "game_id" in kwargs else None
        request.live_hub = the_hub  # for known_game
        response = await live.run_sync(_respond, sync_view, request, kwargs)
        # The language the view chose on its thread (the account's, else Accept-Language's), here
        # too: a stream's events and a long-poll's news are described on the loop.
        if getattr(request, "LANGUAGE_CODE", None):
            translation.activate(request.LANGUAGE_CODE)
        if not isinstance(response, Waiting):
            return response
        news = await wait_for_news(the_hub, response.poll, epoch)
        if news is not None:
            # News, maybe long after the view checked the caller: the token may be revoked or
            # the game no longer theirs to see (docs/social.md, "Open channels").
            ended = await poll_ended(response.poll)
            if ended:
                return ENDED_ANSWERS[ended]()
            response.data = news
        if isinstance(response.accepted_renderer, renderers.JSONRenderer):
            response.render()  # CPU only: no need of a thread
        else:
            await live.run_sync(response.render)
        return response

    # drf-spectacular documents the URL from the DRF view class, as for any APIView.
    view.cls, view.initkwargs, view.csrf_exempt = view_class, {}, True
    view.__name__ = view.__qualname__ = view_class.__name__
    return view


def _cached(classes: list) -> list:
    return [CachedTokenAuthentication if issubclass(c, HashedTokenAuthentication) else c for c in classes]


def _respond(view: Callable, request, kwargs: dict[str, Any]):
    response = view(request, **kwargs)
    if hasattr(response, "render") and not isinstance(response, Waiting):
        response.render()
    return response


game_stream = asynchronous(GameStreamView)
user_stream = asynchronous(UserStreamView)
