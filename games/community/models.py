"""The tables of what happens around a game (games.community.social, games.community.chat, games.community.invitations).

None of them is an event: chat, votes and invitations never enter the immutable log of moves.
Imported by games.models, so Django sees them as the games app's models.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models


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
        PLAYERS = "players"
        SPECTATORS = "spectators"

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat")
    channel = models.CharField(max_length=16, choices=Channel.choices)
    # Null once the author's account is erased (accounts.personal_data): the text stays.
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    text = models.TextField(help_text="plain text as sent; never rendered as HTML")
    created_at = models.DateTimeField(db_index=True)
    hidden = models.BooleanField(default=False)
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    hidden_reason = models.TextField(blank=True, default="")
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "channel", "id"]), models.Index(fields=["author", "created_at"])]

    def __str__(self) -> str:
        return f"chat #{self.pk} in {self.game_id} ({self.channel})"


class ChatReport(models.Model):
    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
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
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    responded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["game", "invitee"], name="invitation_unique")]
