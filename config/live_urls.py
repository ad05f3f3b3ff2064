"""The `live` process's URLconf (config.live_settings): the waiting routes only."""

from django.urls import include, path

urlpatterns = [path("api/v1/", include("games.api.live_urls"))]

handler400 = "games.api.errors.bad_request"
handler403 = "games.api.errors.permission_denied"
handler404 = "games.api.errors.not_found"
handler500 = "games.api.errors.server_error"
