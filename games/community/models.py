"""The tables of what happens around a game (games.community.social, games.community.chat, games.community.invitations).

None of them is an event: chat, votes and invitations never enter the immutable log of moves.
Imported by games.models, so Django sees them as the games app's models.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _, pgettext_lazy


class AbortVote(models.Model):
    """A seat asks to abort a game in which every seat has moved: unanimity of the seats still
    in aborts it. A vote stands until its seat withdraws it (the row is deleted) or the game ends;
    moves leave votes alone, so the move path pays nothing for them."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="abort_votes")
    seat = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="abort_vote_unique")]


class ChatMessage(models.Model):
    class Channel(models.TextChoices):
        PLAYERS = "players", _("players")
        SPECTATORS = "spectators", _("spectators")

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat", verbose_name=_("game"))
    channel = models.CharField(_("channel"), max_length=16, choices=Channel.choices)
    # Null once the author's account is erased (accounts.personal_data): the text stays.
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("author"),
    )
    text = models.TextField(_("text"), help_text=_("plain text as sent; never rendered as HTML"))
    created_at = models.DateTimeField(_("created at"), db_index=True)
    hidden = models.BooleanField(_("hidden"), default=False)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("hidden by"),
    )
    hidden_reason = models.TextField(_("hidden reason"), blank=True, default="")
    hidden_at = models.DateTimeField(_("hidden at"), null=True, blank=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "channel", "id"]), models.Index(fields=["author", "created_at"])]

    def __str__(self) -> str:
        return f"chat #{self.pk} in {self.game_id} ({self.channel})"


class ChatReport(models.Model):
    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_unique")]


class Invitation(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        CANCELLED = "cancelled"
        # "expired" is not stored: a pending invitation past `expires_at` reads as expired.

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="invitations")
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    responded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["game", "invitee"], name="invitation_unique")]


class Tournament(models.Model):
    """A tournament (games.community.tournament_lifecycle; docs/tournaments.md): its rounds' games are
    ordinary games the server creates, seats and starts. The pairings are a pure function of the
    registrations in their initial order, the rounds played and `seed`, whose hash is public from
    creation and which is revealed when the tournament is over."""

    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("round robin")
        KNOCKOUT = "knockout", _("knockout")

    class Status(models.TextChoices):
        REGISTERING = "registering", pgettext_lazy("the tournament is", "registering")
        RUNNING = "running", pgettext_lazy("the tournament is", "running")
        FINISHED = "finished", pgettext_lazy("the tournament is", "finished")
        CANCELLED = "cancelled", pgettext_lazy("the tournament is", "cancelled")

    id = models.UUIDField(_("ID"), primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(_("kind"), max_length=32)
    format = models.CharField(_("format"), max_length=16, choices=Format.choices)
    options = models.JSONField(
        _("options"), default=dict, help_text=_("every game's options, clocks included, defaults filled")
    )
    table_size = models.PositiveSmallIntegerField(
        _("table size"), help_text=_("seats at each table (2: a 2-player game)")
    )
    rounds = models.PositiveSmallIntegerField(
        _("rounds"),
        null=True,
        blank=True,
        help_text=_("Swiss: fixed at creation; round robin and knockout: known at the start"),
    )
    through = models.PositiveSmallIntegerField(
        _("places through"), default=1, help_text=_("knockout at tables of 3+: the places that go through")
    )
    starts_at = models.DateTimeField(
        _("starts at"), null=True, blank=True, help_text=_("none: the organiser starts it")
    )
    capacity = models.PositiveIntegerField(_("capacity"))
    min_rating = models.FloatField(_("min rating"), null=True, blank=True)
    private = models.BooleanField(
        _("private"), default=False, help_text=_("hidden from lists; registration by join link only")
    )
    join_code = models.CharField(_("join code"), max_length=64, null=True, blank=True)
    bots_fill = models.BooleanField(_("bots fill"), default=False, help_text=_("bots fill the last table at the start"))
    bot_level = models.PositiveSmallIntegerField(_("bot level"), default=2)
    round_hours = models.PositiveIntegerField(
        _("round hours"),
        null=True,
        blank=True,
        help_text=_("how long a round may last; then its unfinished games are settled by their timeout policy"),
    )
    bye_points = models.FloatField(
        _("bye points"),
        null=True,
        blank=True,
        help_text=_("what a bye is worth; none: a win (2-player games) or a table's average"),
    )
    rated = models.BooleanField(_("rated"), default=True)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("organiser")
    )
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.REGISTERING)
    paused = models.BooleanField(_("paused"), default=False, help_text=_("staff: no next round until unpaused"))
    seed = models.CharField(_("seed"), max_length=64, help_text=_("secret until the tournament is over"))
    seed_hash = models.CharField(_("seed hash"), max_length=64)
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    plan = models.JSONField(
        _("plan"), null=True, blank=True, help_text=_("round robin: every round's tables, fixed at the start")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_status_start")]
        constraints = [models.UniqueConstraint(fields=["join_code"], name="tournament_join_code_unique")]

    def __str__(self) -> str:
        return f"{self.name} ({self.format} of {self.kind}, {self.status})"


class Registration(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations", verbose_name=_("tournament")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("user")
    )
    number = models.PositiveIntegerField(
        _("number"), null=True, blank=True, help_text=_("the initial order (0: strongest), set at the start")
    )
    rating = models.FloatField(_("rating"), default=0, help_text=_("the player's rating of the kind at the start"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    removed = models.BooleanField(_("removed"), default=False, help_text=_("removed by staff"))
    final_rank = models.PositiveIntegerField(
        _("final rank"), null=True, blank=True, help_text=_("the place in the final standings (profiles show it)")
    )

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["number", "created_at"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="registration_unique")]
        indexes = [models.Index(fields=["user", "withdrawn_at"], name="registration_user")]


class TournamentRound(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    byes = models.JSONField(default=list, help_text="user ids with a bye this round")
    bracket = models.JSONField(
        null=True, blank=True, help_text="knockout: the round's slots in bracket order, each a list of user ids"
    )
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="tournament_round_unique")]


class TournamentTable(models.Model):
    """One game of a round: its players in seat order and, once it is over, each seat's place."""

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(help_text="1: the leaders' table")
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="tournament_table")
    players = models.JSONField(help_text="user ids in seat order")
    places = models.JSONField(null=True, blank=True, help_text="each seat's place once the game is over")

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="tournament_table_unique")]


class Ladder(models.Model):
    """A standing ranking of one 2-player kind (games.community.ladders): a player challenges
    anyone up to `reach` places above; the winner of the challenge's game takes the higher place."""

    kind = models.CharField(max_length=32, unique=True)
    reach = models.PositiveSmallIntegerField(default=3, help_text="how many places above a player may challenge")
    options = models.JSONField(default=dict, help_text="the challenge games' options, clocks included")
    answer_seconds = models.PositiveIntegerField(
        default=2 * 86400, help_text="a challenge unanswered this long goes to the challenger"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.kind} ladder"


class Rung(models.Model):
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="rungs")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField(help_text="1: the top")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ladder", "position"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "user"], name="rung_user_unique"),
            # Deferred: a challenge won moves several players down one place in one statement.
            models.UniqueConstraint(
                fields=["ladder", "position"], name="rung_position_unique", deferrable=models.Deferrable.DEFERRED
            ),
        ]


class Challenge(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"  # waiting for the defender's answer
        PLAYING = "playing"  # accepted: its game is in progress
        WON = "won"  # by the challenger: they took the defender's place
        LOST = "lost"  # the challenger did not win: nothing moves
        DECLINED = "declined"  # refused, or unanswered in time: as won, to the challenger

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    defender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    game = models.OneToOneField(
        "games.Game", null=True, blank=True, on_delete=models.PROTECT, related_name="ladder_challenge"
    )
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField(help_text="unanswered by then: the challenger's")
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "expires_at"], name="challenge_status_expiry")]
