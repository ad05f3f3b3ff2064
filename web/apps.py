from django.apps import AppConfig


class WebConfig(AppConfig):
    """The reference web client: one HTML page and ES modules that only talk to /api/v1/."""

    name = "web"
