"""One base for our middlewares, so each runs in Django's sync and async request paths alike.

A single sync-only middleware makes Django run the whole chain, and the view under it, on a
thread: every stream and long-poll would then hold one while it waits.
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
