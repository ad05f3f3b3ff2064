from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("games.api.urls")),
    path("", include("web.urls")),
]

# Production error pages are JSON like every other error (games.api.errors.JsonErrorsMiddleware
# does the same for Django's debug pages).
handler400 = "games.api.errors.bad_request"
handler403 = "games.api.errors.permission_denied"
handler404 = "games.api.errors.not_found"
handler500 = "games.api.errors.server_error"
