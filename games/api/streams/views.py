"""The base of the views whose requests wait (a stream, a long-poll): a DRF view that Django runs as
an async view, so that a request may wait on the event loop without holding a thread."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from asgiref.sync import iscoroutinefunction
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpResponseBase
from django.utils import translation
from rest_framework import renderers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.tokens import HashedTokenAuthentication
from games.api.auth import CachedTokenAuthentication
from games.realtime import threads

T = TypeVar("T")


# A DRF view whose handler (`get`) is a coroutine, which makes it an async view for Django (Django's
# async class-based views): it runs on the event loop. The handler hands its reads to
# `off_the_loop`, which checks the request first on the same thread, as DRF's dispatch would; what
# the handler then does on the loop (a stream's sending, a long-poll's wait) holds no thread.
# (A comment, not a docstring: drf-spectacular would describe each subclass's operation with it.)
class WaitingView(APIView):
    async def dispatch(self, request, *args, **kwargs):
        """APIView.dispatch for a coroutine handler, made of DRF's own steps: the request wrapped
        here (initialize_request), checked off the loop (initial, handle_exception: `off_the_loop`),
        and an answer made on the loop finished here (finalize_response)."""
        # A sync handler's request (Django's test client, or `web`): its thread waits on this view,
        # so reads run there (threads.run_sync). Not reset: a stream's iterator runs after we return.
        threads.sync_caller.set(isinstance(request, WSGIRequest))
        self.args, self.kwargs = args, kwargs
        request = self.request = self.initialize_request(request, *args, **kwargs)
        self.headers = self.default_response_headers
        name = request.method.lower()
        handler = getattr(self, name, None) if name in self.http_method_names else None
        if iscoroutinefunction(handler):
            response = await handler(request, *args, **kwargs)
        else:  # OPTIONS, or a method the view does not answer: DRF's answer, as for any view
            response = await self.off_the_loop(handler or self.http_method_not_allowed, request, *args, **kwargs)
        if isinstance(response, Response) and not response.is_rendered:  # made on the loop
            response = self.finalize_response(request, response, *args, **kwargs)
            if isinstance(response.accepted_renderer, renderers.JSONRenderer):
                response.render()  # CPU only: no need of a thread
            else:
                await threads.run_sync(response.render)
        self.response = response
        return response

    async def off_the_loop(self, read: Callable[..., T], request, *args, **kwargs) -> T | HttpResponseBase:
        """`read(request, ...)` on a live thread (threads.run_sync), once per request, after DRF's
        checks of the request on that thread (initial: authentication, permissions, throttles,
        content negotiation). A refusal, or an error `read` raises, comes back as DRF's answer
        (handle_exception); a response, finalized and rendered there. The language the request
        chose there (the account's, else Accept-Language's) is then the loop's too: a stream's
        events and a long-poll's news are described on the loop."""
        found = await threads.run_sync(self._checked, read, request, args, kwargs)
        if getattr(request, "LANGUAGE_CODE", None):
            translation.activate(request.LANGUAGE_CODE)
        return found

    def _checked(self, read: Callable[..., Any], request, args: tuple, kwargs: dict) -> Any:
        try:
            self.initial(request, *self.args, **self.kwargs)
            found = read(request, *args, **kwargs)
        except Exception as exc:
            found = self.handle_exception(exc)
        if isinstance(found, HttpResponseBase):
            found = self.finalize_response(request, found, *self.args, **self.kwargs)
            if hasattr(found, "render"):
                found.render()
        return found

    def get_authenticators(self):
        """The view's authentication classes, a token looked up through the process's memory
        (`cached`). The OpenAPI document names the classes themselves: drf-spectacular marks the
        views it inspects (`swagger_fake_view`, its documented flag), and one class per scheme
        keeps each scheme's component one."""
        if getattr(self, "swagger_fake_view", False):
            return super().get_authenticators()
        return [authentication() for authentication in cached(self.authentication_classes)]


def cached(classes: list) -> list:
    """Authentication classes for a waiting view: its token looked up once per process (for
    LIVE_AUTH_CACHE_SECONDS), not once per long-poll or stream reconnect."""
    return [CachedTokenAuthentication if issubclass(c, HashedTokenAuthentication) else c for c in classes]
