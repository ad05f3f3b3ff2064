"""One base for our middlewares, so each runs in Django's sync and async request paths alike.

A single sync-only middleware makes Django run the whole chain, and the view under it, on a
thread (see config/static.py): every stream and long-poll would then hold one while it waits.
A subclass says what it does through hooks and never writes the sync/async dispatch itself:

- `answers(request)` / `answer(request)`: requests the middleware serves itself (a probe, a
  scrape). `answer` is sync and may block (database, Redis): under ASGI it runs on a thread.
- `before(request)` -> state, `after(request, response, state)` -> response, and `done(state)`
  (always, even when the view raised): cheap, non-blocking work around the view, run inline on
  the event loop under ASGI.
"""
from __future__ import annotations

from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async


class HybridMiddleware:
    sync_capable = async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self._async = iscoroutinefunction(get_response)
        if self._async:
            markcoroutinefunction(self)

    # -- hooks ----------------------------------------------------------------------------------
    def answers(self, request) -> bool:
        return False

    def answer(self, request):
        raise NotImplementedError

    def before(self, request) -> Any:
        return None

    def after(self, request, response, state):
        return response

    def done(self, state) -> None:
        pass

    # -- dispatch -------------------------------------------------------------------------------
    def __call__(self, request):
        if self._async:
            return self._acall(request)
        if self.answers(request):
            return self.answer(request)
        state = self.before(request)
        try:
            return self.after(request, self.get_response(request), state)
        finally:
            self.done(state)

    async def _acall(self, request):
        if self.answers(request):
            return await sync_to_async(self.answer)(request)
        state = self.before(request)
        try:
            return self.after(request, await self.get_response(request), state)
        finally:
            self.done(state)


# ---------------------------------------------------------------------------------------------
# Django's own middlewares, inline in the async path
# ---------------------------------------------------------------------------------------------
class Inline:
    """Django's MiddlewareMixin runs each hook of a middleware, in the async path, through
    sync_to_async on the one shared sync thread: two thread hops per middleware and request,
    queued behind every other request's. The hooks of the middlewares below only read and write
    headers, cookies and lazy objects, so they run inline; `blocks` says when a response hook
    would write to storage (a modified session) and must go to a thread after all."""

    def __init__(self, get_response):
        super().__init__(get_response)
        view_hook = getattr(self, "process_view", None)
        if self.async_mode and view_hook is not None:
            async def process_view(request, view, args, kwargs):
                return view_hook(request, view, args, kwargs)

            self.process_view = process_view  # Django awaits an async one as it is

    def blocks(self, request, response) -> bool:
        return False

    async def __acall__(self, request):
        response = self.process_request(request) if hasattr(self, "process_request") else None
        response = response or await self.get_response(request)
        if hasattr(self, "process_response"):
            if self.blocks(request, response):
                return await sync_to_async(self.process_response)(request, response)
            response = self.process_response(request, response)
        return response


def inline(base: type, blocks=None) -> type:
    """`base` (one of Django's MiddlewareMixin middlewares) with its hooks inline."""
    made = type(base.__name__, (Inline, base), {"__module__": "config.builtin_middleware",
                                                "__doc__": base.__doc__})
    if blocks is not None:
        made.blocks = blocks
    return made

