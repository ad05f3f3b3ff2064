"""A person's browser that asks for a page the site does not have gets a page saying so, with the
way back: the API's JSON error ({"code", "detail"}) is for programs, and API clients still get it."""

from asgiref.sync import iscoroutinefunction
from django.http import HttpResponseNotFound
from django.template.loader import render_to_string
from django.utils.decorators import sync_and_async_middleware

# Paths whose answers are for programs (or Django's admin, which has its own pages).
NOT_PAGES = ("/api/", "/admin/", "/static/", "/sw.js", "/manifest.webmanifest")


def wants_a_page(request) -> bool:
    return (
        request.method in ("GET", "HEAD")
        and not request.path.startswith(NOT_PAGES)
        and "text/html" in request.headers.get("Accept", "")
    )


def _page_for(request, response):
    if response.status_code == 404 and wants_a_page(request):
        return HttpResponseNotFound(render_to_string("web/not_found.html", {"path": request.path}, request))
    return response


@sync_and_async_middleware
def browser_not_found(get_response):
    """Listed before games.api.errors.JsonErrorsMiddleware, so it sees that middleware's JSON 404
    and replaces it for a browser asking for a page. Sync and async alike: the live streams run
    through the same stack without being made sync."""
    if iscoroutinefunction(get_response):

        async def middleware(request):
            return _page_for(request, await get_response(request))
    else:

        def middleware(request):
            return _page_for(request, get_response(request))

    return middleware
