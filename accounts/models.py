from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """Our own user model from the first migration, as Django advises for new projects."""

    email = models.EmailField(_("email address"), blank=True)
    # The username as compared (accounts.names.key): unique, so two registrations of look-alike
    # names cannot both land, whichever order they commit in.
    # A computer player (docs/bots.md): marked in every view of it; the site's own bots also
    # carry their level (1-3). It moves through the same use cases as a person.
    is_bot = models.BooleanField(_("computer player"), default=False)
    bot_level = models.PositiveSmallIntegerField(_("bot level"), null=True, blank=True)
    username_key = models.CharField(_("username key"), max_length=600, unique=True, null=True, editable=False)
    # A guest (docs/accounts.md#guests): made in one click from the front page, with no password;
    # it plays like anyone and keeps its games when it registers (the same row gets a name and
    # a password), so nothing has to be moved from one account to another.
    is_guest = models.BooleanField(_("guest"), default=False)
    # The language the server speaks to this account (settings.LANGUAGES), in answers to its
    # requests and in what reaches it without one (notices, emails, pushes); "" follows each
    # request's Accept-Language, and the site's default where there is no request.
    language = models.CharField(_("language"), max_length=8, blank=True, default="")

    def save(self, *args, **kwargs):
        from accounts.names import key

        self.username_key = key(self.username)
        if kwargs.get("update_fields") is not None and "username" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "username_key"}
        super().save(*args, **kwargs)


class RetiredUsername(models.Model):
    """A deleted account's former name (as its key): nobody may register it, or a look-alike,
    until `until` (USERNAME_RETIRED_DAYS after the deletion), so a stranger cannot step into the
    old name while others still remember it."""

    key = models.CharField(max_length=600, unique=True)
    until = models.DateTimeField()


class Vacation(models.Model):
    """Days off: while one lasts, the user's clocks stop in every game."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="vacations")
    start = models.DateTimeField()
    end = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["start"]
        indexes = [models.Index(fields=["user", "end"])]
        constraints = [
            models.CheckConstraint(condition=models.Q(end__gt=models.F("start")), name="vacation_ends_after_start")
        ]


class NotificationPreference(models.Model):
    """Which channels each kind of notification goes to, and how email is batched."""

    TYPES = (
        "your_turn",
        "reminder",
        "timed_out",
        "dispute",
        "finished",
        "chat",
        "invitation",
        "abort_vote",
        "joined",
        "tournament",
        "ladder",
    )
    CHANNELS = ("inbox", "email", "webhook", "push")
    # Push goes only to a user who registered a browser or device (accounts.PushSubscription,
    # PushDevice), so it is on by default: registering is the opt-in.
    DEFAULT_CHANNELS = {kind: ["inbox", "email", "webhook", "push"] for kind in TYPES}

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="notification_preference")
    channels = models.JSONField(default=dict, blank=True)
    email_digest_minutes = models.PositiveIntegerField(
        default=60, help_text="0: each email at once; otherwise one digest per this many minutes"
    )
    # When the open digest goes out: kept here, so a notice joins it without searching the
    # deliveries (games.notifications.notify sets it in one upsert for every user a write notifies).
    email_digest_at = models.DateTimeField(null=True, blank=True)
    # Quiet hours: no push from quiet_start to quiet_end (wall clock in quiet_tz; across midnight
    # when start > end). A push due then waits for the end; the inbox, email and webhooks do not.
    quiet_start = models.TimeField(null=True, blank=True)
    quiet_end = models.TimeField(null=True, blank=True)
    # db_default: the outbox creates preference rows in SQL of its own (notify.digest_slots_sql).
    quiet_tz = models.CharField(max_length=64, db_default="UTC", help_text="an IANA time zone name")

    def channels_for(self, kind: str) -> list[str]:
        return list(self.channels.get(kind, self.DEFAULT_CHANNELS[kind]))


class Webhook(models.Model):
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=64)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)


class PushSubscription(models.Model):
    """A browser's Web Push subscription (RFC 8030): where to POST and the keys to encrypt for
    (RFC 8291). Removed when its push service answers 404 or 410."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200, help_text="the browser's P-256 public key, base64url")
    auth = models.CharField(max_length=64, help_text="the browser's authentication secret, base64url")
    user_agent = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)


class PushDevice(models.Model):
    """A mobile app's push token on one platform (Apple's APNs or Google's FCM)."""

    class Platform(models.TextChoices):
        APNS = "apns"
        FCM = "fcm"

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="push_devices")
    platform = models.CharField(max_length=8, choices=Platform.choices)
    token = models.CharField(max_length=512)
    name = models.CharField(max_length=100, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["platform", "token"], name="push_device_token_unique")]


class Rating(models.Model):
    """A player's skill at one kind of game (openskill's Plackett-Luce: mu and sigma); `rating`
    is the conservative estimate shown and ranked on, mu - 3 sigma (0 for a newcomer)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("user"))
    kind = models.CharField(_("kind"), max_length=32)
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    rating = models.FloatField(_("rating"), db_index=True)
    games = models.PositiveIntegerField(_("games"), default=0, help_text=_("rated games counted"))
    updated_at = models.DateTimeField(_("updated at"))

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="rating_user_kind_unique")]
        indexes = [models.Index(fields=["kind", "-rating"])]


class RatingChange(models.Model):
    """One rated game's effect on one player: the history behind a Rating."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("user"))
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("game")
    )
    kind = models.CharField(_("kind"), max_length=32)
    seat = models.PositiveSmallIntegerField(_("seat"))
    place = models.PositiveSmallIntegerField(_("place"))
    mu_before = models.FloatField(_("mu before"))
    sigma_before = models.FloatField(_("sigma before"))
    mu_after = models.FloatField(_("mu after"))
    sigma_after = models.FloatField(_("sigma after"))
    rating_before = models.FloatField(_("rating before"))
    rating_after = models.FloatField(_("rating after"))
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["at", "pk"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="rating_change_unique")]
        indexes = [models.Index(fields=["user", "kind", "at"])]


class AuthToken(models.Model):
    """An API token for one device. Only its SHA-256 is stored (the key is shown once, at login);
    it expires TOKEN_TTL_DAYS after its last use and its owner can list and revoke it."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="auth_tokens", verbose_name=_("user"))
    digest = models.CharField(_("digest"), max_length=64, unique=True)
    prefix = models.CharField(
        _("prefix"), max_length=8, help_text=_("the key's first characters, to tell tokens apart")
    )
    device = models.CharField(_("device"), max_length=100, blank=True, default="")
    created_at = models.DateTimeField(_("created at"))
    last_used_at = models.DateTimeField(_("last used at"))
    expires_at = models.DateTimeField(_("expires at"), db_index=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-last_used_at"]
