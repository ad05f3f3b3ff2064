"""WhiteNoise, able to run in Django's async request path.

WhiteNoise's middleware is sync-only; one sync middleware makes Django run the whole chain, and the
view under it, on a thread. A stream or a long-poll would then hold that thread while it waits.
This one serves static files as WhiteNoise does and otherwise stays async.
"""
from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from whitenoise.middleware import WhiteNoiseMiddleware


class AsyncWhiteNoiseMiddleware(WhiteNoiseMiddleware):
    sync_capable = True
    async_capable = True

    def __init__(self, get_response=None, *args, **kwargs):
        super().__init__(get_response, *args, **kwargs)
        self._async = iscoroutinefunction(get_response)
        if self._async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self._async:
            return self.__acall__(request)
        return super().__call__(request)

    async def __acall__(self, request):
        path = request.path_info
        static_file = self.find_file(path) if self.autorefresh else self.files.get(path)
        if static_file is not None:
            return await sync_to_async(self.serve, thread_sensitive=False)(static_file, request)
        return await self.get_response(request)
