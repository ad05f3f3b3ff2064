from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from accounts import personal_data
        from games.community import chat
        from games.realtime import live

        live.connect()  # cached tokens of streams and long-polls forget revoked ones
        # Chat authorship is personal data: exported with the account, anonymised on deletion.
        personal_data.register("chat", export=chat.export_user, erase=chat.erase_user)
