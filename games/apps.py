from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.core import checks
        from django.db.models.signals import post_save

        from accounts import personal_data
        from games.models import DeliveryAttempt
        from games.notifications import notify, push
        from games.community import chat
        from games.play import access
        from games.realtime import tokens

        tokens.connect()  # cached tokens of streams and long-polls forget revoked ones
        # Chat authorship is personal data: exported with the account, anonymised on deletion.
        personal_data.register("chat", export=chat.export_user, erase=chat.erase_user)
        # Others' notices that name the account by its username: renamed to deleted-N.
        personal_data.register("named_in_notices", export=lambda user: None, erase=notify.forget_name)
        # A seat in an open or active game keeps the account until the game is left or over.
        personal_data.keep_while("games", access.require_no_games_in_progress)
        # Delivery attempts count in the metrics (config.metrics), in every process that makes them.
        post_save.connect(notify.attempt_saved, sender=DeliveryAttempt, dispatch_uid="darkroom-metrics-delivery")
        # Which push platforms cannot be sent to (Web Push without VAPID keys, APNs, FCM).
        checks.register(push.check, "darkroom")
