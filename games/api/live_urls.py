"""The routes the `live` process serves: the requests that wait (docs/operations.md, "Why a
`live` process"). The very patterns of games.api.urls, so an answer never depends on which
process gave it."""

from games.api.urls import WAITING

urlpatterns = WAITING
