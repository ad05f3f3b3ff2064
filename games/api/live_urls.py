"""The routes the `live` process serves: the requests that wait (docs/operations.md, "The live
process"). The same views as games.api.urls, so an answer never depends on which process gave it."""
from django.urls import path

from games.api import streams, views
from games.api.urls import TextConverter  # noqa: F401  (registers the `text` converter)

urlpatterns = [
    path("games/<text:game_id>/events/", streams.asynchronous(views.EventsView), name="game-events"),
    path("games/<text:game_id>/stream/", streams.game_stream, name="game-stream"),
    path("stream/", streams.user_stream, name="stream"),
]
