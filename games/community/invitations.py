"""Private games, invitations, join links and rematches (docs/social.md#invitations).

A private game is an ordinary game with `private` set: it is hidden from every list and is a
404 to anyone who neither sits in it nor holds an invitation (games.play.access.require_visible).
Invitations are rows, not events; accepting one is joining the game (lobby.join_game), so
the log records the seat as for any join. A pending invitation expires INVITATION_DAYS after it
was sent (read as `expired`; nothing needs to run for it).

Every invitation notifies its invitee, so a user sends at most INVITATIONS_PER_DAY in any 24
hours (rematches included): a batch that would pass it is refused whole. Inviting again someone
whose invitation is still pending sends nothing, so that no one is notified twice for one seat.

A rematch is a private game with the finished game's players invited: it starts by itself when
the last of them accepts, and one decline cancels it (a rematch is with the same players).
"""

from __future__ import annotations

import math
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.notifications import notify
from games.play import access, lobby, store
from games.errors import GAME_STATUS, INVITATION_STATUS, worded
from games.errors import (
    AlreadyExists,
    GameNotFinished,
    GameNotOpen,
    Invalid,
    InvitationClosed,
    NotFound,
    TooManyInvitations,
)
from games.models import Game, Invitation, Seat
from games.play.store import NewEvent

MAX_INVITEES = 10
QUOTA_WINDOW = timedelta(hours=24)


def status_of(invitation: Invitation, now=None) -> str:
    now = now or timezone.now()
    if invitation.status == Invitation.Status.PENDING and invitation.expires_at <= now:
        return "expired"
    return invitation.status


def serve(invitation: Invitation) -> dict[str, Any]:
    game = invitation.game
    return {
        "id": invitation.pk,
        "game": str(invitation.game_id),
        "kind": game.kind,
        "invitee": invitation.invitee.username,
        "invited_by": invitation.invited_by.username if invitation.invited_by_id else None,
        "rematch": game.rematch_of_id is not None,
        "status": status_of(invitation),
        "created_at": invitation.created_at,
        "expires_at": invitation.expires_at,
        "responded_at": invitation.responded_at,
    }


def _users(usernames: Any, inviter) -> list:
    from accounts.models import User

    if not isinstance(usernames, list) or not all(isinstance(u, str) for u in usernames):
        raise Invalid(gettext("invite must be a list of usernames"))
    if len(usernames) > MAX_INVITEES:
        raise Invalid(gettext("at most %(MAX_INVITEES)s invitations at once") % {"MAX_INVITEES": MAX_INVITEES})
    wanted = list(dict.fromkeys(usernames))
    users = {u.username: u for u in User.objects.filter(username__in=wanted, is_active=True)}
    unknown = [name for name in wanted if name not in users]
    if unknown:
        raise Invalid(gettext("no such user: %(value)s") % {"value": ", ".join(unknown)})
    if inviter.username in users:
        raise Invalid(gettext("you cannot invite yourself"))
    return [users[name] for name in wanted]


def _hold(user) -> None:
    """Lock the inviter's row (as taking a seat does, games.play.lobby): two requests of one
    user count their invitations in turn."""
    from accounts.models import User

    User.objects.select_for_update(no_key=True).filter(pk=user.pk).first()


def _within_quota(inviter, new: int, now) -> None:
    limit = settings.INVITATIONS_PER_DAY
    sent = Invitation.objects.filter(invited_by=inviter, created_at__gt=now - QUOTA_WINDOW)
    used = sent.count()
    if used + new > limit:
        oldest = sent.order_by("created_at").values_list("created_at", flat=True).first()
        wait = (oldest + QUOTA_WINDOW - now).total_seconds() if oldest else QUOTA_WINDOW.total_seconds()
        raise TooManyInvitations(
            gettext("at most %(limit)s invitations in 24 hours: you have sent %(used)s, and asked for %(new)s more")
            % {"limit": limit, "used": used, "new": new},
            limit=limit,
            retry_after=max(1, math.ceil(wait)),
        )


def _invite(game: Game, inviter, users: list) -> list[Invitation]:
    """The caller holds the inviter's row (_hold, or create_game's seat lock)."""
    now = timezone.now()
    seated = set(Seat.objects.filter(game=game).values_list("user_id", flat=True))
    if any(user.pk in seated for user in users):
        raise Invalid(gettext("someone invited already has a seat in this game"))
    pending = {
        i.invitee_id: i
        for i in Invitation.objects.filter(
            game=game, invitee__in=users, status=Invitation.Status.PENDING, expires_at__gt=now
        )
    }
    new = [user for user in users if user.pk not in pending]
    _within_quota(inviter, len(new), now)
    expires = now + timedelta(days=settings.INVITATION_DAYS)
    made = []
    for user in users:
        if user.pk in pending:
            made.append(pending[user.pk])
            continue
        invitation, _ = Invitation.objects.update_or_create(
            game=game,
            invitee=user,
            defaults={
                "invited_by": inviter,
                "status": Invitation.Status.PENDING,
                "created_at": now,
                "expires_at": expires,
                "responded_at": None,
            },
        )
        made.append(invitation)
    if new:
        notify.send(
            [u.pk for u in new], game, "invitation", {"rematch": game.rematch_of_id is not None}, who=inviter.username
        )
    return made


def _make_private(game: Game, link: bool) -> None:
    game.private = True
    game.join_code = secrets.token_urlsafe(24) if link else None
    game.save(update_fields=["private", "join_code"])


@transaction.atomic
def create_private_game(
    user, kind: Any, options: Any, seats: Any, invite: Any, rated: Any = None, auto_start: Any = False
) -> Game:
    users = _users(invite if invite is not None else [], user)
    # Games among friends are unrated unless the creator asks (public games are rated by default).
    game = lobby.create_game(user, kind, options, seats, False if rated is None else rated, auto_start=auto_start)
    _make_private(game, link=True)
    if users:
        _invite(game, user, users)
    return game


@transaction.atomic
def invite(game_id, user, usernames: Any) -> list[Invitation]:
    game = access.get_game(game_id, lock=True, user=user)
    access.require_visible(game, user)
    access.require_creator(game, user)
    if game.status != Game.Status.OPEN:
        raise GameNotOpen(
            gettext("the game is %(status)s; invitations are for open games")
            % {"status": worded(GAME_STATUS, game.status)}
        )
    if not game.private:
        raise Invalid(gettext("the game is public: anyone may join it"))
    users = _users(usernames, user)
    _hold(user)  # after the game's row, in the order join_game and rematch lock them
    return _invite(game, user, users)


def for_game(game_id, user) -> list[Invitation]:
    game = access.get_game(game_id, user=user)
    access.require_player(game, user)
    return list(Invitation.objects.filter(game=game).select_related("game", "invitee", "invited_by"))


def mine(user) -> list[Invitation]:
    return list(Invitation.objects.filter(invitee=user).select_related("game", "invitee", "invited_by")[:200])


def _pending(invitation_id, user) -> Invitation:
    invitation = (
        Invitation.objects.select_for_update(of=("self",))
        .select_related("game", "invitee", "invited_by")
        .filter(pk=invitation_id, invitee=user)
        .first()
    )
    if invitation is None:
        raise NotFound(gettext("no such invitation"))
    current = status_of(invitation)
    if current != Invitation.Status.PENDING:
        raise InvitationClosed(
            gettext("the invitation is %(current)s") % {"current": worded(INVITATION_STATUS, current)}
        )
    return invitation


@transaction.atomic
def accept(invitation_id, user) -> Invitation:
    invitation = _pending(invitation_id, user)
    game = lobby.join_game(invitation.game_id, user)
    invitation.status, invitation.responded_at = Invitation.Status.ACCEPTED, timezone.now()
    invitation.save(update_fields=["status", "responded_at"])
    if (
        game.rematch_of_id is not None
        and not Invitation.objects.filter(game=game, status=Invitation.Status.PENDING).exists()
    ):
        lobby.start_game(game.pk, game.creator)  # every player is back: the rematch begins
    invitation.game.refresh_from_db()
    return invitation


@transaction.atomic
def decline(invitation_id, user) -> Invitation:
    invitation = _pending(invitation_id, user)
    now = timezone.now()
    invitation.status, invitation.responded_at = Invitation.Status.DECLINED, now
    invitation.save(update_fields=["status", "responded_at"])
    game = access.get_game(invitation.game_id, lock=True)
    if game.rematch_of_id is not None and game.status == Game.Status.OPEN:
        # A rematch is with the same players: one decline calls it off.
        Seat.objects.filter(game=game).delete()
        Invitation.objects.filter(game=game, status=Invitation.Status.PENDING).update(
            status=Invitation.Status.CANCELLED, responded_at=now
        )
        store.append(
            game,
            game.version,
            [NewEvent(store.GAME_CANCELLED, {"reason": "a player declined the rematch"}, user_id=user.pk)],
            now,
            status=Game.Status.CANCELLED,
        )
        invitation.game = game
    return invitation


@transaction.atomic
def join_by_code(code: str, user) -> Game:
    """The join link: whoever holds the code may take a seat, as if invited."""
    game = Game.objects.filter(join_code=code).first() if code else None
    # A link seats no one once the game is past its lobby: from then on it tells someone who may
    # not see the game no more than a code that never was (its state is none of their business).
    if game is None or (game.status != Game.Status.OPEN and not access.may_see(game, user)):
        raise NotFound(gettext("no game has this join code"))
    now = timezone.now()
    Invitation.objects.update_or_create(
        game=game,
        invitee=user,
        defaults={
            "invited_by": None,
            "status": Invitation.Status.ACCEPTED,
            "created_at": now,
            "expires_at": now,
            "responded_at": now,
        },
    )
    return lobby.join_game(game.pk, user)


@transaction.atomic
def rematch(game_id, user) -> Game:
    """A new game with the same players, kind and options (and a new seed): the caller sits at
    seat 0, the others are invited."""
    old = access.get_game(game_id, lock=True, user=user)
    access.require_player(old, user)
    if old.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise GameNotFinished(
            gettext("the game is %(status)s; a rematch follows a game that is over")
            % {"status": worded(GAME_STATUS, old.status)}
        )
    if Game.objects.filter(rematch_of=old).exclude(status=Game.Status.CANCELLED).exists():
        raise AlreadyExists(gettext("a rematch of this game exists already"))
    players = list(Seat.objects.filter(game=old).select_related("user").order_by("number"))
    if len(players) < 2:
        raise Invalid(gettext("no one else is left to play again"))
    # Same players, same options, and as rated as the game it answers. Its bots sit down again
    # at once (after the caller), and when only bots are left to ask, the game starts.
    bots = {int(uid): level for uid, level in old.options.get("bots", {}).items()}
    options = {k: v for k, v in old.options.items() if k not in ("bots", "tournament", "ladder")}
    people = [seat.user for seat in players if seat.user_id != user.pk and seat.user_id not in bots]
    levels = [bots[seat.user_id] for seat in players if seat.user_id in bots]
    if people and levels:
        # The people are invited, which makes the rematch private, and a private game seats no
        # bots (the one rule for every private game, docs/bots.md).
        raise Invalid(
            gettext(
                "a rematch with other people is private, and a private game seats no bots: create a new public game to play them and the computer again"
            )
        )
    game = lobby.create_game(user, old.kind, options, len(players), old.rated, levels or None)
    game.rematch_of = old
    game.save(update_fields=["rematch_of"])
    if people:
        _make_private(game, link=False)
        _invite(game, user, people)
    return game
