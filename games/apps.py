from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from games import live

        live.connect()  # cached tokens of streams and long-polls forget revoked ones
