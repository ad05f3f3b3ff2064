"""Chat per game: the players' channel and the spectators' channel (docs/social.md#chat).

Messages are rows of their own, never events: the log of moves stays the game's alone, and a
message costs the players no 409. Plain text, stored as sent and served as JSON strings: no
HTML is made of it anywhere (the admin escapes it as it escapes everything).

Who reads what: the players' channel is the seats' (a spectator never reads it); the
spectators' channel is everyone else's who may see the game, and the players read it too once
the game is over (not before: no kibitzing). Hidden messages are served to nobody but staff.
"""

from __future__ import annotations

import math
import unicodedata
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.notifications import notify
from games.play import access
from games.realtime import news
from games.errors import AlreadyExists, Forbidden, Invalid, NotFound, Throttled
from games.models import ChatMessage, ChatReport, Game, Seat

Channel = ChatMessage.Channel


def invisible_characters(text: str) -> bool:
    """Whether the text holds a control (Cc: NUL, U+0085...) or format character (Cf: zero-width
    spaces and joiners, bidirectional overrides...), tab and newline aside: they show nothing, or
    change how the text around them shows (docs/social.md#chat)."""
    return any(unicodedata.category(c) in ("Cc", "Cf") and c not in "\t\n" for c in text)


def shows_something(text: str) -> bool:
    """A letter, digit, punctuation mark or symbol (emoji are symbols): not only blanks and marks."""
    return any(unicodedata.category(c)[0] in "LNPS" for c in text)


def readable(game: Game, seat: int | None) -> list[str]:
    if seat is not None:
        over = game.status not in (Game.Status.OPEN, Game.Status.ACTIVE)
        return [Channel.PLAYERS, Channel.SPECTATORS] if over else [Channel.PLAYERS]
    return [Channel.SPECTATORS]


def _channel(value: Any) -> str:
    if value not in Channel.values:
        raise Invalid(gettext("channel must be one of %(value)s") % {"value": ", ".join(Channel.values)})
    return value


def _visible_game(game_id, user) -> tuple[Game, int | None]:
    game = access.get_game(game_id, user=user)
    access.require_visible(game, user)
    return game, access.seat_of(game, user)


def serve(message: ChatMessage) -> dict[str, Any]:
    return {
        "id": message.pk,
        "game": str(message.game_id),
        "channel": message.channel,
        "author": message.author_id,
        "username": message.author.username if message.author_id else None,
        "text": message.text,
        "created_at": message.created_at,
    }


def messages(game_id, user, channel: Any, after: int = 0, limit: int = 100) -> list[dict[str, Any]]:
    game, seat = _visible_game(game_id, user)
    channel = _channel(channel)
    if channel not in readable(game, seat):
        raise Forbidden(gettext("you may not read the %(channel)s channel of this game") % {"channel": channel})
    rows = (
        ChatMessage.objects.filter(game=game, channel=channel, hidden=False, id__gt=after)
        .select_related("author")
        .order_by("id")[:limit]
    )
    return [serve(m) for m in rows]


def _text(text: Any) -> str:
    if not isinstance(text, str) or not text.strip():
        raise Invalid(gettext("text must be a non-empty string"))
    text = text.strip()
    if len(text) > settings.CHAT_MAX_LENGTH:
        raise Invalid(
            gettext("text must be at most %(CHAT_MAX_LENGTH)s characters")
            % {"CHAT_MAX_LENGTH": settings.CHAT_MAX_LENGTH}
        )
    if invisible_characters(text):
        raise Invalid(gettext("text may not contain control or format characters (tab and newline aside)"))
    if not shows_something(text):
        raise Invalid(gettext("text must show something: a letter, digit, punctuation mark or symbol"))
    return text


@transaction.atomic
def post(game_id, user, channel: Any, text: Any) -> dict[str, Any]:
    game, seat = _visible_game(game_id, user)
    channel = _channel(channel)
    if channel == Channel.PLAYERS and seat is None:
        raise Forbidden(gettext("only the players write in the players' channel"))
    if channel == Channel.SPECTATORS and seat is not None:
        raise Forbidden(gettext("players do not write in the spectators' channel"))
    text = _text(text)
    # The user's row serialises their messages, so the rate limit holds under racing requests.
    type(user).objects.select_for_update().filter(pk=user.pk).first()
    now = timezone.now()
    window = timedelta(seconds=settings.CHAT_RATE_SECONDS)
    recent = list(
        ChatMessage.objects.filter(author=user, created_at__gt=now - window)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[: settings.CHAT_RATE_COUNT]
    )
    if len(recent) >= settings.CHAT_RATE_COUNT:
        wait = (recent[-1] + window - now).total_seconds()
        raise Throttled(
            gettext("at most %(CHAT_RATE_COUNT)s messages per %(CHAT_RATE_SECONDS)s s")
            % {"CHAT_RATE_COUNT": settings.CHAT_RATE_COUNT, "CHAT_RATE_SECONDS": settings.CHAT_RATE_SECONDS},
            retry_after=max(1, math.ceil(wait)),
        )
    message = ChatMessage.objects.create(game=game, channel=channel, author=user, text=text, created_at=now)
    news.announce_chat(game.pk, message.pk)
    if channel == Channel.PLAYERS:
        others = Seat.objects.filter(game=game).exclude(user=user).values_list("user_id", flat=True)
        notify.send(others, game, "chat", {"message": message.pk, "channel": channel}, who=user.username)
    return serve(message)


def new_for_stream(game: Game, seat: int | None, after: int, limit: int) -> list[dict[str, Any]]:
    """What a game's stream sends of the chat: the reader's channels, after message `after`."""
    rows = (
        ChatMessage.objects.filter(game=game, channel__in=readable(game, seat), hidden=False, id__gt=after)
        .select_related("author")
        .order_by("id")[:limit]
    )
    return [serve(m) for m in rows]


def latest_id(game: Game) -> int:
    return ChatMessage.objects.filter(game=game).order_by("-id").values_list("id", flat=True).first() or 0


@transaction.atomic
def report(game_id, user, message_id: int, reason: Any) -> ChatReport:
    game, seat = _visible_game(game_id, user)
    message = ChatMessage.objects.filter(pk=message_id, game=game, hidden=False).first()
    if message is None or message.channel not in readable(game, seat):
        raise NotFound(gettext("no such message"))
    if message.author_id == user.pk:
        raise Forbidden(gettext("you cannot report your own message"))
    if reason is None:
        reason = ""
    if not isinstance(reason, str) or len(reason) > 500 or invisible_characters(reason):
        raise Invalid(gettext("reason must be a plain text of at most 500 characters"))
    report, created = ChatReport.objects.get_or_create(
        message=message, reporter=user, defaults={"reason": reason.strip()}
    )
    if not created:
        raise AlreadyExists(gettext("you already reported this message"))
    return report


@transaction.atomic
def hide(message_id: int, staff_user, reason: str) -> ChatMessage:
    """Staff hide a message: it is kept, marked hidden, with who hid it and why."""
    if not staff_user.is_staff:
        raise Forbidden(gettext("only staff hide messages"))
    if not isinstance(reason, str) or not reason.strip():
        raise Invalid(gettext("say why the message is hidden"))
    message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
    if message is None:
        raise NotFound(gettext("no such message"))
    message.hidden, message.hidden_by, message.hidden_at = True, staff_user, timezone.now()
    message.hidden_reason = reason.strip()
    message.save(update_fields=["hidden", "hidden_by", "hidden_at", "hidden_reason"])
    return message


# ---------------------------------------------------------------------------------------------
# Personal data (accounts.personal_data): registered in GamesConfig.ready
# ---------------------------------------------------------------------------------------------
def export_user(user) -> list[dict[str, Any]]:
    return [
        {
            "game": str(m.game_id),
            "channel": m.channel,
            "text": m.text,
            "created_at": m.created_at.isoformat(),
            "hidden": m.hidden,
        }
        for m in ChatMessage.objects.filter(author=user).order_by("id")
    ]


def erase_user(user) -> None:
    """Authorship is anonymised: the messages stay (the others' conversation keeps its sense)
    with no author; the user's reports lose their reporter."""
    ChatMessage.objects.filter(author=user).update(author=None)
    ChatReport.objects.filter(reporter=user).update(reporter=None)
