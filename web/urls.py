from django.urls import path

from web import views

# The client routes by the URL fragment (#/games/<id>), so one path serves every screen.
urlpatterns = [
    path("", views.index, name="web"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
]
