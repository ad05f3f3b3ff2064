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

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=32, db_index=True)
    options = models.JSONField(default=dict)
    seats = models.PositiveSmallIntegerField(help_text="seats offered; the game starts with those taken")
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    version = models.PositiveIntegerField(default=0)
    active_seats = models.JSONField(default=list)
    clocks = models.JSONField(default=dict, blank=True, help_text="per-seat clock state (games.clocks)")
    next_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    result = models.JSONField(null=True, blank=True)
    seed_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} {self.id} ({self.status}, v{self.version})"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="seat_set")
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
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
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

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
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
