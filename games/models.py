"""The event store's tables and the projections rebuilt from them.

`Event` is the truth: append-only (PostgreSQL triggers, migration 0002, refuse UPDATE, DELETE and
TRUNCATE). `Game`, `Seat` and `Snapshot` are projections and caches that the events can rebuild.
"""
from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        ACTIVE = "active"
        FINISHED = "finished"
        CANCELLED = "cancelled"
        ABORTED = "aborted"  # ended by abort (games.community.social): counts for nobody

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=32)
    options = models.JSONField(default=dict)
    seats = models.PositiveSmallIntegerField(help_text="seats offered; the game starts with those taken")
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    version = models.PositiveIntegerField(default=0)
    active_seats = models.JSONField(default=list)
    clocks = models.JSONField(default=dict, blank=True, help_text="per-seat clock state (games.clocks)")
    next_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    next_reminder = models.DateTimeField(null=True, blank=True, db_index=True)
    result = models.JSONField(null=True, blank=True)
    seed_hash = models.CharField(max_length=64)
    rules_version = models.PositiveSmallIntegerField(
        default=1, help_text="the rules the game was created under (GameCreated); it is replayed by them")
    rated = models.BooleanField(default=True, help_text="the result changes the players' ratings")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Invitation only (games.community.invitations): hidden from lists, 404 to all but seats and invitees.
    private = models.BooleanField(default=False)
    join_code = models.CharField(max_length=64, null=True, blank=True)
    rematch_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="rematches")

    class Meta:
        ordering = ["-created_at"]
        # A move that moves a deadline cannot update the row in place (next_deadline is indexed),
        # so it adds an entry to every index here: only those some query uses. Plain indexes and
        # a unique constraint, since db_index or unique on a CharField adds a LIKE-pattern twin
        # that no query uses; none on `private`, which every list filters after `status`.
        indexes = [models.Index(fields=["kind"], name="game_kind"),
                   models.Index(fields=["status"], name="game_status")]
        constraints = [models.UniqueConstraint(fields=["join_code"], name="game_join_code_unique")]

    def __str__(self) -> str:
        return f"{self.kind} {self.id} ({self.status}, v{self.version})"


class Seat(models.Model):
    # No index of its own: the unique (game, number) and (game, user) lead with it.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="seat_set", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField()
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_user_unique"),
        ]


class Event(models.Model):
    # No index of its own: the unique (game, seq) leads with it, and every move inserts a row into
    # each index (docs/benchmarks.md).
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=64)
    actor = models.SmallIntegerField(null=True, blank=True, help_text="seat; null = system or staff")
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField()
    idempotency_key = models.CharField(max_length=128, null=True, blank=True)
    request_hash = models.CharField(max_length=64, blank=True, default="")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_seq_unique"),
            models.UniqueConstraint(fields=["game", "idempotency_key"], name="event_idempotency_unique"),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="event_seq_positive"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.type}"


class Snapshot(models.Model):
    """The engine state after event `version`: an optimisation a full replay must always agree with."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots", db_index=False)
    version = models.PositiveIntegerField()
    state = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "version"], name="snapshot_unique")]


class Dispute(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        UPHELD = "upheld"
        DISMISSED = "dismissed"

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="disputes")
    seq = models.PositiveIntegerField(help_text="the event disputed")
    reason = models.TextField(max_length=2000)
    raised_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    resolution = models.TextField(blank=True, default="")
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"dispute on {self.game_id} #{self.seq} ({self.status})"


class Mute(models.Model):
    """A user silences one game: no notifications from it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mutes")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="mutes")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="mute_unique")]


class Notification(models.Model):
    """The inbox, and the outbox of every other channel: written in the transaction of the event
    that causes it, so a rolled-back move notifies nobody and a crash after commit loses nothing."""

    # No index of its own: both of Meta's lead with it. A move inserts notices and marks the
    # mover's read, and a changed read_at updates every index of the row.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications",
                             db_index=False)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    type = models.CharField(max_length=32)
    title = models.CharField(max_length=200)
    data = models.JSONField(default=dict)
    seq = models.PositiveIntegerField(null=True, blank=True, help_text="the event that caused it")
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()
    read_at = models.DateTimeField(null=True, blank=True)
    collapsed = models.PositiveIntegerField(default=1, help_text="how many notices this one stands for")

    class Meta:
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["user", "read_at"]), models.Index(fields=["user", "game", "type"])]


class Delivery(models.Model):
    """One notification to one channel (email or a webhook), retried until sent or given up."""

    class Status(models.TextChoices):
        PENDING = "pending"
        SENT = "sent"
        FAILED = "failed"

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE, related_name="deliveries")
    channel = models.CharField(max_length=16)
    webhook = models.ForeignKey("accounts.Webhook", null=True, blank=True, on_delete=models.CASCADE,
                                related_name="deliveries")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(db_index=True)
    last_error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "deliveries"
        # A plain index: db_index on a CharField adds a second, LIKE-pattern one that no query uses,
        # and every notifying move inserts deliveries.
        indexes = [models.Index(fields=["status"], name="delivery_status")]


class DeliveryAttempt(models.Model):
    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="attempt_log")
    at = models.DateTimeField()
    ok = models.BooleanField()
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    duration_ms = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["at"]


from games.community.models import AbortVote, ChatMessage, ChatReport, Invitation  # noqa: E402,F401
