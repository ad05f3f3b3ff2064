from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """Our own user model from the first migration, as Django advises for new projects."""

    email = models.EmailField("email address", blank=True)


class Vacation(models.Model):
    """Days off: while one lasts, the user's clocks stop in every game."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="vacations")
    start = models.DateTimeField()
    end = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["start"]
        indexes = [models.Index(fields=["user", "end"])]
        constraints = [models.CheckConstraint(condition=models.Q(end__gt=models.F("start")),
                                              name="vacation_ends_after_start")]


class NotificationPreference(models.Model):
    """Which channels each kind of notification goes to, and how email is batched."""

    TYPES = ("your_turn", "reminder", "timed_out", "dispute", "finished", "chat", "invitation",
             "abort_vote")
    CHANNELS = ("inbox", "email", "webhook")
    DEFAULT_CHANNELS = {kind: ["inbox", "email", "webhook"] for kind in TYPES}

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="notification_preference")
    channels = models.JSONField(default=dict, blank=True)
    email_digest_minutes = models.PositiveIntegerField(
        default=60, help_text="0: each email at once; otherwise one digest per this many minutes")
    # When the open digest goes out: kept here, so a notice joins it without searching the
    # deliveries (games.notify sets it in one upsert for every user a write notifies).
    email_digest_at = models.DateTimeField(null=True, blank=True)

    def channels_for(self, kind: str) -> list[str]:
        return list(self.channels.get(kind, self.DEFAULT_CHANNELS[kind]))


class Webhook(models.Model):
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=64)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
