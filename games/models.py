"""The event store's tables and the projections rebuilt from them.

`Event` is the truth: append-only (PostgreSQL triggers, migration 0002, refuse UPDATE, DELETE and
TRUNCATE). `Game`, `Seat` and `Snapshot` are projections and caches that the events can rebuild.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _, pgettext_lazy


@dataclass(frozen=True)
class Table:
    """Who sits at a game and when they are away, read with its row (games.play.access.get_game):
    what a move needs for its clocks and notices."""

    seats: dict[int, tuple[int, str]]  # seat -> (user id, username)
    vacations: dict[int, list[tuple[datetime, datetime]]]  # seat -> its user's vacations
    unread_turn_notice: bool | None = None  # the caller has one (None: no caller asked)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("the game is", "open")
        ACTIVE = "active", pgettext_lazy("the game is", "active")
        FINISHED = "finished", pgettext_lazy("the game is", "finished")
        CANCELLED = "cancelled", pgettext_lazy("the game is", "cancelled")
        # ended by abort (games.community.social): counts for nobody
        ABORTED = "aborted", pgettext_lazy("the game is", "aborted")

    id = models.UUIDField(_("ID"), primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(_("kind"), max_length=32)
    options = models.JSONField(_("options"), default=dict)
    seats = models.PositiveSmallIntegerField(_("seats"), help_text=_("seats offered; the game starts with those taken"))
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("creator")
    )
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.OPEN)
    version = models.PositiveIntegerField(_("version"), default=0)
    active_seats = models.JSONField(_("active seats"), default=list)
    clocks = models.JSONField(_("clocks"), default=dict, blank=True, help_text=_("per-seat clock state (games.clocks)"))
    next_deadline = models.DateTimeField(_("next deadline"), null=True, blank=True, db_index=True)
    next_reminder = models.DateTimeField(_("next reminder"), null=True, blank=True, db_index=True)
    result = models.JSONField(_("result"), null=True, blank=True)
    seed_hash = models.CharField(_("seed hash"), max_length=64)
    rules_version = models.PositiveSmallIntegerField(
        _("rules version"),
        default=1,
        help_text=_("the rules the game was created under (GameCreated); it is replayed by them"),
    )
    rated = models.BooleanField(_("rated"), default=True, help_text=_("the result changes the players' ratings"))
    auto_start = models.BooleanField(
        _("auto start"), default=False, help_text=_("the game starts itself when its last seat is taken")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # Invitation only (games.community.invitations): hidden from lists, 404 to all but seats and invitees.
    private = models.BooleanField(_("private"), default=False)
    join_code = models.CharField(_("join code"), max_length=64, null=True, blank=True)
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches", verbose_name=_("rematch of")
    )

    # Not columns: what games.play.access.get_game read with the row, on the instance it returns
    # (for this request only): the caller's (user id, seat or None), and with table=True the table.
    _seat_known: tuple[int, int | None]
    table: Table

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created_at"]
        # A move that moves a deadline cannot update the row in place (next_deadline is indexed),
        # so it adds an entry to every index here: only those some query uses. Plain indexes and
        # a unique constraint, since db_index or unique on a CharField adds a LIKE-pattern twin
        # that no query uses; none on `private`, which every list filters after `status`.
        indexes = [models.Index(fields=["kind"], name="game_kind"), models.Index(fields=["status"], name="game_status")]
        constraints = [models.UniqueConstraint(fields=["join_code"], name="game_join_code_unique")]
        permissions = [
            # Deciding a dispute is one thing, rewinding a game another (games.play.disputes).
            ("roll_back_game", "Can roll back games (with view game)"),
            # A game's seed computes every deal to come: judging a dispute needs the state, not
            # the future, so the seed of a game not yet over is for fewer people still.
            ("view_seed", "Can see the seed of an unfinished game"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.id} ({self.status}, v{self.version})"


class Seat(models.Model):
    # No index of its own: the unique (game, number) and (game, user) lead with it.
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, related_name="seat_set", db_index=False, verbose_name=_("game")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats", verbose_name=_("user")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_user_unique"),
        ]


class Event(models.Model):
    # No index of its own: the unique (game, seq) leads with it, and every move inserts a row into
    # each index (docs/benchmarks.md).
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, related_name="events", db_index=False, verbose_name=_("game")
    )
    seq = models.PositiveIntegerField(_("event number"))
    type = models.CharField(_("type"), max_length=64)
    actor = models.SmallIntegerField(_("actor"), null=True, blank=True, help_text=_("seat; null = system or staff"))
    data = models.JSONField(_("data"), default=dict)
    created_at = models.DateTimeField(_("created at"))
    idempotency_key = models.CharField(_("idempotency key"), max_length=128, null=True, blank=True)
    request_hash = models.CharField(_("request hash"), max_length=64, blank=True, default="")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("user"),
    )

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_seq_unique"),
            # A key is the caller's own: a person's can never collide with a bot's or another's.
            models.UniqueConstraint(
                fields=["game", "user", "idempotency_key"], name="event_idempotency_per_user_unique"
            ),
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
        OPEN = "open", pgettext_lazy("the dispute is", "open")
        UPHELD = "upheld", pgettext_lazy("the dispute is", "upheld")
        DISMISSED = "dismissed", pgettext_lazy("the dispute is", "dismissed")

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="disputes", verbose_name=_("game"))
    seq = models.PositiveIntegerField(_("event number"), help_text=_("the event disputed"))
    reason = models.TextField(_("reason"), max_length=2000)
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("raised by")
    )
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    resolution = models.TextField(
        _("message to the players"),
        blank=True,
        default="",
        help_text=_("published to the game's players with the decision; a draft while the dispute is open"),
    )
    note = models.TextField(
        _("staff note"),
        blank=True,
        default="",
        help_text=_("for staff only: never shown to players, never in the game's log"),
    )
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("resolved by"),
    )
    assigned_to = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("the reviewer who claimed it"),
        verbose_name=_("assigned to"),
    )
    rolled_back_to = models.PositiveIntegerField(
        _("rolled back to"),
        null=True,
        blank=True,
        help_text=_("upheld with a rollback: the event the game went back to"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)

    class Meta:
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")
        ordering = ["-created_at"]
        permissions = [("decide_dispute", "Can decide disputes (uphold or dismiss)")]

    def __str__(self) -> str:
        return f"dispute #{self.pk} on event {self.seq} ({self.status})"

    @property
    def published_resolution(self) -> str:
        """What players may read: staff's text is a draft until a decision publishes it."""
        return "" if self.status == self.Status.OPEN else self.resolution


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
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,
        verbose_name=_("user"),
    )
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+", verbose_name=_("game")
    )
    type = models.CharField(_("type"), max_length=32)
    title = models.CharField(_("title"), max_length=200)
    data = models.JSONField(_("data"), default=dict)
    seq = models.PositiveIntegerField(_("event number"), null=True, blank=True, help_text=_("the event that caused it"))
    created_at = models.DateTimeField(_("created at"))
    updated_at = models.DateTimeField(_("updated at"))
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)
    collapsed = models.PositiveIntegerField(
        _("collapsed"), default=1, help_text=_("how many notices this one stands for")
    )

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["user", "read_at"]), models.Index(fields=["user", "game", "type"])]


class Delivery(models.Model):
    """One notification to one channel (email or a webhook), retried until sent or given up."""

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("the delivery is", "pending")
        SENT = "sent", pgettext_lazy("the delivery is", "sent")
        FAILED = "failed", pgettext_lazy("the delivery is", "failed")

    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, related_name="deliveries", verbose_name=_("notification")
    )
    channel = models.CharField(_("channel"), max_length=16)
    webhook = models.ForeignKey(
        "accounts.Webhook",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="deliveries",
        verbose_name=_("webhook"),
    )
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt at"), db_index=True)
    last_error = models.TextField(_("last error"), blank=True, default="")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")
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


from games.community.models import (  # noqa: E402, F401
    AbortVote,
    Challenge,
    ChatMessage,
    ChatReport,
    Invitation,
    Ladder,
    Registration,
    Rung,
    Tournament,
    TournamentRound,
    TournamentTable,
)
