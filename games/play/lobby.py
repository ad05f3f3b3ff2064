"""The lobby's use cases: a game is created, its seats taken and given up, and it is started
(by its creator, by the join that takes its last seat, or at once for a server-seated table). Each
public function is one transaction; every write goes through store.append with the version it was
decided on, under the game row's lock."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.errors import GAME_STATUS, worded
from games.errors import (
    AlreadyJoined,
    Forbidden,
    GameFull,
    GameNotOpen,
    Invalid,
    TooManyBotGames,
    WrongPlayerCount,
)
from games.models import Event, Game, Seat
from games.notifications import notify
from games.play import access, options as game_options, store
from games.play.kinds import engine_of, get_engine
from games.play.store import NewEvent
from games.play.turns import Turn


def _player(user, seat: int) -> dict[str, Any]:
    # An event names its user by id only: the name is read from the account when the event is
    # shown (games.play.selectors.describe), so a deleted account's name goes from old logs too.
    return {"seat": seat, "user": user.pk}


def _seatable(user) -> None:
    """Taking a seat holds the account's row (FOR NO KEY UPDATE) to the commit: an account
    deletion, which holds it FOR UPDATE while it checks for open games, then either waits for the
    seat and sees it (409 games_in_progress), or goes first and the seat is refused here."""
    from accounts.models import User

    if User.objects.select_for_update(no_key=True).filter(pk=user.pk, is_active=True).first() is None:
        raise Forbidden(gettext("this account is closed"))


def _bot_levels(bots: Any) -> list[int]:
    if bots is None:
        return []
    if not isinstance(bots, list) or any(type(b) is not int or not 1 <= b <= 3 for b in bots):
        raise Invalid(gettext("bots must be a list of bot levels, each 1, 2 or 3"))
    return list(bots)


def _fill(fill: Any) -> dict[str, int] | None:
    if fill is None:
        return None
    if (
        not isinstance(fill, dict)
        or set(fill) != {"level", "after_seconds"}
        or type(fill["level"]) is not int
        or not 1 <= fill["level"] <= 3
        or type(fill["after_seconds"]) is not int
        or not 5 <= fill["after_seconds"] <= settings.TIMER_MAX_ETA_SECONDS
    ):
        raise Invalid(
            gettext("fill_with_bots is {level: 1-3, after_seconds: 5-%(TIMER_MAX_ETA_SECONDS)s}")
            % {"TIMER_MAX_ETA_SECONDS": settings.TIMER_MAX_ETA_SECONDS}
        )
    return fill


# What a refusal for too many games with bots suggests as Retry-After: a game takes longer, but
# one may end or be left at any moment.
BOT_GAMES_RETRY_SECONDS = 60


def bot_games_in_progress(user_id: int, excluding=None) -> int:
    """The open and active games created by the user that seat a bot (docs/bots.md, "Fair
    share")."""
    # A tournament's tables are the tournament's bots, not its organiser's (their own limit).
    games = Game.objects.filter(
        creator_id=user_id, status__in=[Game.Status.OPEN, Game.Status.ACTIVE], seat_set__user__is_bot=True
    ).exclude(options__has_key="tournament")
    if excluding is not None:
        games = games.exclude(pk=excluding)
    return games.distinct().count()


def _within_bot_games(user) -> None:
    """The caller's row is locked (`_seatable`), so two creates of one account count in turn."""
    limit = settings.BOT_GAMES_PER_USER
    if bot_games_in_progress(user.pk) >= limit:
        raise TooManyBotGames(
            gettext("at most %(limit)s games with bots open or in progress at once: finish or leave one first")
            % {"limit": limit},
            limit=limit,
            retry_after=BOT_GAMES_RETRY_SECONDS,
        )


@transaction.atomic
def create_game(
    user,
    kind: Any,
    options: Any,
    seats: Any,
    rated: Any = None,
    bots: Any = None,
    fill_with_bots: Any = None,
    auto_start: Any = False,
) -> Game:
    """A new open game, the creator at seat 0. `bots`: the levels of computer players to seat
    next (docs/bots.md); when they fill the game it starts at once. A game with bots is unrated
    unless the creator asks for it and the site allows it (settings.BOTS_RATED).
    `fill_with_bots` {level, after_seconds}: an open seek whose empty seats bots of that level
    take when the wait is over (the game then starts). `auto_start`: the game starts itself when
    someone takes its last seat; without, the creator starts it."""
    _seatable(user)
    if not isinstance(auto_start, bool):
        raise Invalid(gettext("auto_start must be true or false"))
    if not isinstance(kind, str):
        raise Invalid(gettext("kind must be a string"))
    engine = get_engine(kind)
    levels = _bot_levels(bots)
    fill = _fill(fill_with_bots)
    filled = game_options.validate(engine, options)
    if seats is None:
        seats = engine.max_players if not levels else 1 + len(levels)
    if not isinstance(seats, int) or isinstance(seats, bool) or not (engine.min_players <= seats <= engine.max_players):
        raise Invalid(
            gettext("seats must be a whole number from %(min_players)s to %(max_players)s")
            % {"min_players": engine.min_players, "max_players": engine.max_players}
        )
    asked_rated = rated is True
    if rated is None:
        rated = True  # public games are rated unless the creator says otherwise
    if not isinstance(rated, bool):
        raise Invalid(gettext("rated must be true or false"))
    if levels and 1 + len(levels) > seats:
        raise Invalid(
            gettext("%(levels)s bots and you do not fit in %(seats)s seats") % {"levels": len(levels), "seats": seats}
        )
    if levels:
        rated = asked_rated and settings.BOTS_RATED  # people are rated against bots only so
    if levels or fill:
        _within_bot_games(user)
    seed = secrets.token_hex(32)
    now = timezone.now()
    game = Game.objects.create(
        kind=kind,
        options=filled,
        seats=seats,
        creator=user,
        rated=rated,
        auto_start=auto_start,
        seed_hash=store.seed_hash(seed),
        rules_version=engine.rules_version,
    )
    Seat.objects.create(game=game, user=user, number=0)
    store.append(
        game,
        0,
        [
            NewEvent(
                store.GAME_CREATED,
                {
                    "kind": kind,
                    "options": filled,
                    "seats": seats,
                    "seed": seed,
                    "seed_hash": game.seed_hash,
                    "rules_version": game.rules_version,
                },
                user_id=user.pk,
            ),
            NewEvent(store.PLAYER_JOINED, _player(user, 0), actor=0, user_id=user.pk),
        ],
        now,
    )
    if levels:
        from games.play.bots import seat_bots

        placed = seat_bots(game, levels, list(range(1, 1 + len(levels))))
        game.options = {**filled, "bots": {str(b.pk): b.bot_level for b in placed}}
        Game.objects.filter(pk=game.pk).update(options=game.options)
        store.append(
            game,
            game.version,
            [NewEvent(store.PLAYER_JOINED, _player(b, 1 + i), actor=1 + i, user_id=b.pk) for i, b in enumerate(placed)],
            now,
        )
        if 1 + len(levels) == seats:
            start_game(game.pk, user)
            game.refresh_from_db()
    if fill and game.status == Game.Status.OPEN:
        from games.play.bots import send_fill

        send_fill(game.pk, fill["level"], fill["after_seconds"])
        if not (asked_rated and settings.BOTS_RATED):  # it may end up with bots in it
            game.rated = False
            Game.objects.filter(pk=game.pk).update(rated=False)
    return game


@transaction.atomic
def create_table(
    creator, kind: str, options: dict[str, Any], players: list, rated: bool, server_options: dict[str, Any]
) -> Game:
    """A game the server seats and starts at once (a tournament's table): `players` in seat
    order, `options` already validated (game_options.validate), `server_options` the keys only
    the server sets (`bots`, `tournament`). The bots among the players play through the bots'
    queue like any seated bot; `creator` (the organiser) is not seated."""
    engine = get_engine(kind)
    if not engine.min_players <= len(players) <= engine.max_players:
        raise WrongPlayerCount(
            gettext("%(title)s needs %(min_players)s to %(max_players)s players; %(count)s given")
            % {
                "title": engine.title,
                "min_players": engine.min_players,
                "max_players": engine.max_players,
                "count": len(players),
            }
        )
    people = [user.pk for user in players if not user.is_bot]
    if people:
        # As _seatable, for every person at the table in one statement.
        from accounts.models import User

        held = User.objects.select_for_update(no_key=True).filter(pk__in=people, is_active=True)
        if len(held.values_list("pk", flat=True)) != len(set(people)):
            raise Forbidden(gettext("this account is closed"))
    seed = secrets.token_hex(32)
    now = timezone.now()
    filled = {**options, **server_options}
    game = Game.objects.create(
        kind=kind,
        options=filled,
        seats=len(players),
        creator=creator,
        rated=rated,
        seed_hash=store.seed_hash(seed),
        rules_version=engine.rules_version,
    )
    Seat.objects.bulk_create([Seat(game=game, user=user, number=n) for n, user in enumerate(players)])
    store.append(
        game,
        0,
        [
            NewEvent(
                store.GAME_CREATED,
                {
                    "kind": kind,
                    "options": filled,
                    "seats": len(players),
                    "seed": seed,
                    "seed_hash": game.seed_hash,
                    "rules_version": game.rules_version,
                },
                user_id=creator.pk,
            ),
            *(
                NewEvent(store.PLAYER_JOINED, _player(user, n), actor=n, user_id=user.pk)
                for n, user in enumerate(players)
            ),
        ],
        now,
    )
    return _start(game, creator)


@transaction.atomic
def join_game(game_id, user) -> Game:
    game = access.get_game(game_id, lock=True)
    if game.status != Game.Status.OPEN:
        raise GameNotOpen(
            gettext("the game is %(status)s; seats are taken only while it is open")
            % {"status": worded(GAME_STATUS, game.status)}
        )
    _seatable(user)
    taken = list(Seat.objects.filter(game=game).values_list("number", "user_id"))
    if any(uid == user.pk for _, uid in taken):
        raise AlreadyJoined(gettext("you already have a seat in this game"))
    if len(taken) >= game.seats:
        raise GameFull(gettext("all %(seats)s seats are taken") % {"seats": game.seats})
    number = min(set(range(game.seats)) - {n for n, _ in taken})
    Seat.objects.create(game=game, user=user, number=number)
    store.append(
        game,
        game.version,
        [NewEvent(store.PLAYER_JOINED, _player(user, number), actor=number, user_id=user.pk)],
        timezone.now(),
    )
    # The creator hears of each join (the inbox, and the channels they chose for it), whether or
    # not it was the last seat: a creator who waits for friends knows who came.
    if user.pk != game.creator_id:
        notify.send([game.creator_id], game, "joined", {"seat": number}, seq=game.version, who=user.username)
    if game.auto_start and len(taken) + 1 == game.seats:
        _start(game, user)
    return game


@transaction.atomic
def leave_game(game_id, user) -> Game:
    """Give up a seat while the game is open. The creator leaving cancels the game."""
    game = access.get_game(game_id, lock=True)
    seat = access.require_player(game, user)
    if game.status != Game.Status.OPEN:
        raise GameNotOpen(
            gettext("the game is %(status)s; seats can be given up only while it is open")
            % {"status": worded(GAME_STATUS, game.status)}
        )
    Seat.objects.filter(game=game, user=user).delete()
    if game.private:
        # Leaving a private table gives back what let you sit at it: the invitation, or the one
        # the join link made, is cancelled; coming back takes the link or a new invitation.
        from games.models import Invitation

        Invitation.objects.filter(game=game, invitee=user).update(
            status=Invitation.Status.CANCELLED, responded_at=timezone.now()
        )
    events = [NewEvent(store.PLAYER_LEFT, _player(user, seat), actor=seat, user_id=user.pk)]
    fields: dict[str, Any] = {}
    if game.creator_id == user.pk:
        events.append(NewEvent(store.GAME_CANCELLED, {"reason": "the creator left"}, user_id=user.pk))
        Seat.objects.filter(game=game).delete()
        fields = {"status": Game.Status.CANCELLED}
    store.append(game, game.version, events, timezone.now(), **fields)
    return game


@transaction.atomic
def start_game(game_id, user) -> Game:
    game = access.get_game(game_id, lock=True)
    access.require_creator(game, user)
    if game.status != Game.Status.OPEN:
        raise GameNotOpen(gettext("the game is %(status)s, not open") % {"status": worded(GAME_STATUS, game.status)})
    return _start(game, user)


def _start(game: Game, user) -> Game:
    """Start an open game whose row the caller holds locked: the creator's Start, or the join
    that took the last seat of a game that starts itself (`user` is then the joiner)."""
    engine = engine_of(game)
    seated = list(Seat.objects.filter(game=game).select_related("user").order_by("number"))
    if not engine.min_players <= len(seated) <= engine.max_players:
        raise WrongPlayerCount(
            gettext("%(title)s needs %(min_players)s to %(max_players)s players; %(seated)s seated")
            % {
                "title": engine.title,
                "min_players": engine.min_players,
                "max_players": engine.max_players,
                "seated": len(seated),
            }
        )
    # Seats close up in join order so the engine sees 0..n-1 (someone may have left a gap).
    if [seat.number for seat in seated] != list(range(len(seated))):
        for offset in (100, 0):
            for number, seat in enumerate(seated):
                Seat.objects.filter(pk=seat.pk).update(number=number + offset)
    players = [_player(seat.user, number) for number, seat in enumerate(seated)]
    seed = Event.objects.get(game=game, seq=1).data["seed"]
    own_options = game_options.engine_options(engine, game.options)
    now = timezone.now()
    turn = Turn(game, engine, None, now)
    turn.begin(
        engine.setup(len(players), own_options, seed),
        NewEvent(
            store.GAME_STARTED,
            {"players": players, "options": own_options, "seed_hash": game.seed_hash},
            user_id=user.pk,
        ),
    )
    turn.commit(status=Game.Status.ACTIVE, started_at=now)
    return game
