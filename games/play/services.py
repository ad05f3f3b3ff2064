"""Use cases: each public function is one thing a person (or a timer) does, in one transaction.

Views and Celery tasks call these and nothing below them. Every write goes through store.append
with the version it was decided on, under the game row's lock.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.notifications import notify
from games.play import access, clocks, options as game_options, scheduling, selectors, store, turns
from games.engines import base
from games.errors import DISPUTE_STATUS, GAME_STATUS, in_words, said, worded
from games.errors import (
    AlreadyJoined,
    Forbidden,
    GameFull,
    GameNotActive,
    GameNotOpen,
    IdempotencyMismatch,
    IllegalMove,
    Invalid,
    NotFound,
    NotYourTurn,
    TooManyBotGames,
    TooManyDisputes,
    UnavailableMove,
    VersionConflict,
    WrongPlayerCount,
)
from games.play.kinds import engine_of, get_engine
from games.models import Dispute, Event, Game, Seat
from games.play.store import NewEvent
from games.play.turns import Turn

log = logging.getLogger(__name__)

ENGINE_ERRORS = {
    base.GameOver: GameNotActive,
    base.NotYourTurn: NotYourTurn,
    base.UnavailableMove: UnavailableMove,
    base.IllegalMove: IllegalMove,
}


@dataclass(frozen=True)
class MoveResult:
    version: int
    state: dict[str, Any]
    replayed: bool = False


# ---------------------------------------------------------------------------------------------
# Lobby
# ---------------------------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------------------------
# Play
# ---------------------------------------------------------------------------------------------
def request_hash(user, move: Any, expected_version: Any) -> str:
    body = json.dumps(
        {"user": user.pk, "move": move, "expected_version": expected_version}, sort_keys=True, separators=(",", ":")
    )
    return hashlib.sha256(body.encode()).hexdigest()


def _replayed(game: Game, engine: base.Engine, user, seat: int, key: str, fingerprint: str) -> MoveResult | None:
    """The first answer to the caller's request retried with the same Idempotency-Key (None: a key
    new to this caller). Keys are scoped to the caller, so nobody can spend another's key."""
    first = Event.objects.filter(game=game, user=user, idempotency_key=key).first()
    if first is None:
        return None
    if first.request_hash != fingerprint:
        raise IdempotencyMismatch(gettext("this Idempotency-Key was used for a different request"))
    # One append writes all its events with one timestamp: the answer's version is the last of them.
    version = (
        Event.objects.filter(game=game, created_at=first.created_at)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
        or first.seq
    )  # `first` is among them
    return MoveResult(version, said(engine.view(turns.started_at(game, version), seat)), replayed=True)


def submit_move(game_id, user, move: Any, expected_version: Any, idempotency_key: str | None = None) -> MoveResult:
    """Judge a seat's move. What fell due before it arrived is settled first, in its own
    transaction, so an expiry stands even when the late move is then refused. The game row is
    read once (locked); only a game with a deadline due takes the extra round."""
    for _ in range(2):
        with transaction.atomic():
            game = access.get_game(game_id, lock=True, user=user, table=True)
            now = timezone.now()
            if _is_due(game, now):
                _expire(game, now)
                continue  # commit the expiry; judge the move on the game as it now stands
            return _judge_move(game, user, move, expected_version, idempotency_key)
    with transaction.atomic():
        return _judge_move(
            access.get_game(game_id, lock=True, user=user, table=True), user, move, expected_version, idempotency_key
        )


def _judge_move(game: Game, user, move, expected_version, idempotency_key) -> MoveResult:
    """In the caller's transaction, with the game row locked."""
    seat = access.require_player(game, user)
    engine = engine_of(game)
    fingerprint = request_hash(user, move, expected_version)
    if idempotency_key is not None:
        replayed = _replayed(game, engine, user, seat, idempotency_key, fingerprint)
        if replayed is not None:
            return replayed
    if not isinstance(expected_version, int) or isinstance(expected_version, bool):
        raise Invalid(gettext("expected_version must be a whole number"))
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(gettext("the game is %(status)s") % {"status": worded(GAME_STATUS, game.status)})
    if expected_version != game.version:
        raise VersionConflict(game.version)
    turn = _turn(game, engine, timezone.now())
    # A deadline may have fallen since expire_due above: settle it at this turn's instant, so no
    # move is judged past an unsettled deadline (Photoshoot's hourglass). Should the move then be
    # refused, this rolls back with it and the timer task applies it.
    turn.settle()
    try:
        turn.play(seat, move, user_id=user.pk, key=idempotency_key, request_hash=fingerprint)
    except base.EngineError as error:
        raise ENGINE_ERRORS.get(type(error), IllegalMove)(in_words(error.detail)) from None
    turn.settle()
    table = getattr(game, "table", None)
    # The mover's turn notice is read with the move's own write; no UPDATE when the read saw none.
    read = [notify.turn_notices_read(game, user)] if table is None or table.unread_turn_notice is not False else []
    turn.commit(expected_version, also=read)
    return MoveResult(game.version, said(engine.view(turn.started, seat)))


def _is_due(game: Game, now) -> bool:
    return game.status == Game.Status.ACTIVE and game.next_deadline is not None and game.next_deadline <= now


def _turn(game: Game, engine, now) -> Turn:
    """A turn on the game as read; its seats and vacations too if the read brought them."""
    table = getattr(game, "table", None)
    return turns.current(
        game, engine, now, vacations=table.vacations if table else None, seats=table.seats if table else None
    )


def _expire(game: Game, now) -> int:
    turn = _turn(game, engine_of(game), now)
    turn.settle()
    if not turn.events:
        return 0
    turn.commit()
    return len(turn.events)


@transaction.atomic
def expire_due(game_id, expected_version: int | None = None) -> int:
    """Settle what is due now (timeouts, engine timers); return how many events that appended.

    Idempotent: a task names the version it was scheduled at and does nothing if the game has
    moved on since (the write that moved it scheduled its own task)."""
    try:
        game = Game.objects.select_for_update().filter(pk=game_id).first()
    except (ValueError, ValidationError):
        return 0
    if game is None:
        return 0
    if expected_version is not None and game.version != expected_version:
        return 0
    now = timezone.now()
    return _expire(game, now) if _is_due(game, now) else 0


# How many due games one transaction of the sweeper expires.
EXPIRY_BATCH = 100


def settle_due_games(batch: int = EXPIRY_BATCH) -> dict[str, int]:
    """Expire every game whose deadline has passed, `batch` games per transaction (rows taken
    SKIP LOCKED, so several workers share the work), then send the reminders due. Idempotent: a
    game is expired only while its deadline is due, under its row lock."""
    counts = {"games": 0, "expired": 0, "reminded": 0}
    done: set = set()
    while True:
        try:
            games, events, ids = _expire_batch(batch, done)
        except Exception:  # one game's trouble must not hold up the others: one by one instead
            log.exception("expiring a batch failed; expiring its games one by one")
            games, events, ids = _expire_one_by_one(batch, done)
        done |= ids
        counts["games"] += games
        counts["expired"] += events
        if not ids:
            break
    now = timezone.now()
    for game_id in Game.objects.filter(status=Game.Status.ACTIVE, next_reminder__lte=now).values_list("pk", flat=True)[
        :500
    ]:
        counts["reminded"] += send_due_reminders(game_id)
    return counts


def _due_games(limit: int, done: set) -> list[Game]:
    return list(
        Game.objects.select_for_update(skip_locked=True)
        .filter(status=Game.Status.ACTIVE, next_deadline__lte=timezone.now())
        .exclude(pk__in=done)
        .order_by("next_deadline")[:limit]
    )


@transaction.atomic
def _expire_batch(limit: int, done: set) -> tuple[int, int, set]:
    games = _due_games(limit, done)
    if not games:
        return 0, 0, set()
    states = store.states_of(games)
    vacations = turns.vacations_for_games(games)
    seeds = turns.seeds_of(games)
    seats: dict = {}
    for game_id, number, user_id, name in Seat.objects.filter(game__in=games).values_list(
        "game_id", "number", "user_id", "user__username"
    ):
        seats.setdefault(game_id, {})[number] = (user_id, name)
    settled: list[Turn] = []
    stale: list[Turn] = []
    for game in games:
        turn = Turn(
            game,
            engine_of(game),
            states[game.pk],
            timezone.now(),
            vacations=vacations.get(game.pk, {}),
            seed=seeds.get(game.pk),
            seats=seats.get(game.pk, {}),
        )
        turn.settle()
        (settled if turn.events else stale).append(turn)
    turns.commit_many(settled)
    for turn in stale:  # due by the projection, yet nothing to settle: set the wake times right
        turn.commit()
    return len(settled), sum(len(t.events) for t in settled), {g.pk for g in games}


def _expire_one_by_one(limit: int, done: set) -> tuple[int, int, set]:
    with transaction.atomic():
        ids = [g.pk for g in _due_games(limit, done)]
    games = events = 0
    for game_id in ids:
        try:
            appended = expire_due(game_id)
        except Exception:
            log.exception("expiring game %s failed", game_id)
            continue
        games, events = games + bool(appended), events + appended
    return games, events, set(ids)


@transaction.atomic
def send_due_reminders(game_id) -> int:
    """Remind the seats whose time is running low (once per move); return how many."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or not game.clocks:
        return 0
    now = timezone.now()
    vacations = turns.vacations_for(game)
    fraction = float(game.options.get("reminder_fraction", 0) or 0)
    due = {
        seat: at
        for seat, at in clocks.reminder_times(game.clocks, fraction, vacations).items()
        if at <= now and seat in (game.active_seats or [])
    }
    if due:
        deadlines = clocks.seat_deadlines(game.clocks, vacations)
        notify.remind(game, {seat: deadlines[seat] for seat in due})
        game.clocks = clocks.mark_reminded(game.clocks, due)
    engine = engine_of(game)
    times = turns.wake_times(game, engine, turns.state_at(game), game.clocks, vacations, None)
    Game.objects.filter(pk=game.pk).update(clocks=game.clocks, **times)
    game.__dict__.update(times)
    scheduling.schedule_wake(game)
    return len(due)


# ---------------------------------------------------------------------------------------------
# Disputes
# ---------------------------------------------------------------------------------------------
@transaction.atomic
def open_dispute(game_id, user, seq: Any, reason: Any) -> Dispute:
    """A player disputes an event. The dispute is a row for staff, not an event: it does not bump
    the game's version, so it never costs the other players a 409, and the log records it when
    staff decide (DisputeResolved carries the dispute whole). Limited per player and game: at most
    DISPUTE_MAX_OPEN open at once, and DISPUTE_COOLDOWN_SECONDS between two."""
    game = access.get_game(game_id)
    access.require_player(game, user)
    if not isinstance(seq, int) or isinstance(seq, bool) or not 1 <= seq <= game.version:
        raise Invalid(gettext("seq must be an event of this game, 1 to %(version)s") % {"version": game.version})
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 2000:
        raise Invalid(gettext("reason must be a non-empty text of at most 2000 characters"))
    # The player's seat row serialises their own disputes (the limit holds under racing
    # requests) without locking the game, which moves need.
    Seat.objects.select_for_update().get(game=game, user=user)
    mine = Dispute.objects.filter(game=game, raised_by=user)
    now = timezone.now()
    if mine.filter(status=Dispute.Status.OPEN, seq=seq).exists():
        raise Invalid(gettext("you already have an open dispute on event %(seq)s") % {"seq": seq})
    if mine.filter(status=Dispute.Status.OPEN).count() >= settings.DISPUTE_MAX_OPEN:
        raise TooManyDisputes(
            gettext("you have %(DISPUTE_MAX_OPEN)s open disputes in this game; wait until staff decide one")
            % {"DISPUTE_MAX_OPEN": settings.DISPUTE_MAX_OPEN},
            retry_after=settings.DISPUTE_COOLDOWN_SECONDS,
        )
    last = mine.order_by("-created_at").values_list("created_at", flat=True).first()
    if last is not None:
        wait = settings.DISPUTE_COOLDOWN_SECONDS - (now - last).total_seconds()
        if wait > 0:
            raise TooManyDisputes(gettext("one dispute at a time: try again later"), retry_after=math.ceil(wait))
    dispute = Dispute.objects.create(game=game, seq=seq, reason=reason.strip(), raised_by=user)
    notify.dispute_changed(game, dispute, opened=True)
    return dispute


def _may(staff_user, perm: str, why: str) -> None:
    if not (staff_user.is_active and staff_user.is_staff and staff_user.has_perm(perm)):
        raise Forbidden(gettext("%(why)s needs the %(perm)s permission") % {"why": why, "perm": perm}, permission=perm)


def _may_decide(staff_user, roll_back: bool) -> None:
    """The service holds the permissions itself: an admin form is only one way in."""
    _may(staff_user, "games.decide_dispute", "deciding a dispute")
    if roll_back:
        _may(staff_user, "games.roll_back_game", "rolling a game back")
        # Nobody rolls back a game they may not look at.
        _may(staff_user, "games.view_game", "rolling a game back")


@transaction.atomic
def resolve_dispute(
    dispute_id: int, staff_user, uphold: bool, resolution: str, roll_back: bool = False, note: str | None = None
) -> Dispute:
    """Staff decide a dispute: `resolution` is the message published to the players with the
    decision, `note` (if given) the staff-only note, kept apart. Upholding may roll the game back
    to just before the disputed event: a new event, so history keeps both the move and its
    voiding. A rollback is refused when it cannot be replayed fairly (`selectors.rollback_refusal`)."""
    _may_decide(staff_user, roll_back)
    dispute = Dispute.objects.select_for_update().filter(pk=dispute_id).first()
    if dispute is None:
        raise NotFound(gettext("no such dispute"))
    if dispute.status != Dispute.Status.OPEN:
        raise Invalid(
            gettext(
                "the dispute is already %(status)s: a decided dispute is not changed; a wrong decision is put right through a new dispute"
            )
            % {"status": worded(DISPUTE_STATUS, dispute.status)}
        )
    if not uphold and roll_back:
        raise Invalid(gettext("a dismissed dispute rolls nothing back"))
    game = access.get_game(dispute.game_id, lock=True)
    engine = engine_of(game)
    now = timezone.now()
    dispute.status = Dispute.Status.UPHELD if uphold else Dispute.Status.DISMISSED
    dispute.resolution, dispute.resolved_by, dispute.resolved_at = resolution, staff_user, now
    if note is not None:
        dispute.note = note
    raised_by = Seat.objects.filter(game=game, user_id=dispute.raised_by_id).values_list("number", flat=True).first()
    # The opening wrote no event: the decision carries the dispute whole into the immutable log,
    # with the decider by name (staff act as no seat: the event's actor is null). The staff note
    # stays out of it: the log is the players' too.
    events = [
        NewEvent(
            store.DISPUTE_RESOLVED,
            {
                "dispute": dispute.pk,
                "status": dispute.status,
                "resolution": resolution,
                "seq": dispute.seq,
                "reason": dispute.reason,
                "raised_by": raised_by,
                "opened_at": dispute.created_at.isoformat(),
                "decided_by": staff_user.get_username(),
            },
            user_id=staff_user.pk,
        )
    ]
    if uphold and roll_back:
        target = dispute.seq - 1
        refusal = selectors.rollback_refusal(game, engine, dispute.seq)
        if refusal is not None:
            raise Invalid(refusal)
        voided = list(
            Event.objects.filter(game=game, seq__gt=target, actor__isnull=False)
            .order_by("seq")
            .values_list("seq", flat=True)
        )
        dispute.rolled_back_to = target
        dispute.save()
        events.append(
            NewEvent(
                store.GAME_ROLLED_BACK,
                {"to": target, "dispute": dispute.pk, "voided": voided, "decided_by": staff_user.get_username()},
                user_id=staff_user.pk,
            )
        )
        game.status = Game.Status.ACTIVE
        turn = Turn(game, engine, None, now)
        turn.roll_back(turns.started_at(game, target), events)
        turn.commit(status=Game.Status.ACTIVE, result=None, finished_at=None)
    else:
        dispute.save()
        store.append(game, game.version, events, now)
    notify.dispute_changed(game, dispute)
    return dispute


@transaction.atomic
def save_dispute_draft(dispute_id: int, staff_user, note: Any, resolution: Any) -> Dispute:
    """Staff keep an open dispute's staff note and draft message (players read the message only
    with a decision). A dispute decided meanwhile is not written over."""
    _may(staff_user, "games.change_dispute", "editing a dispute")
    if not (isinstance(note, str) and isinstance(resolution, str)):
        raise Invalid(gettext("note and resolution must be texts"))
    dispute = Dispute.objects.select_for_update().filter(pk=dispute_id).first()
    if dispute is None:
        raise NotFound(gettext("no such dispute"))
    if dispute.status != Dispute.Status.OPEN:
        raise Invalid(
            gettext("the dispute is already %(status)s and read-only: add a note instead")
            % {"status": worded(DISPUTE_STATUS, dispute.status)}
        )
    dispute.note, dispute.resolution = note, resolution
    dispute.save(update_fields=["note", "resolution"])
    return dispute


@transaction.atomic
def annotate_dispute(dispute_id: int, staff_user, text: Any) -> Dispute:
    """Staff add a line to a dispute's staff note (never shown to players), signed and dated: the
    one change a decided dispute still takes."""
    _may(staff_user, "games.change_dispute", "adding a note to a dispute")
    if not isinstance(text, str) or not text.strip():
        raise Invalid(gettext("a note needs some text"))
    dispute = Dispute.objects.select_for_update().filter(pk=dispute_id).first()
    if dispute is None:
        raise NotFound(gettext("no such dispute"))
    line = f"[{timezone.now():%Y-%m-%d %H:%M:%S} UTC, {staff_user.get_username()}] {text.strip()}"
    dispute.note = f"{dispute.note}\n{line}" if dispute.note else line
    dispute.save(update_fields=["note"])
    return dispute


@transaction.atomic
def assign_dispute(dispute_id: int, staff_user, assignee) -> Dispute:
    """A reviewer claims an open dispute (assignee: themselves) or hands it to another reviewer
    who may decide disputes (assignee None: back to the queue)."""
    _may(staff_user, "games.change_dispute", "assigning a dispute")
    dispute = Dispute.objects.select_for_update().filter(pk=dispute_id).first()
    if dispute is None:
        raise NotFound(gettext("no such dispute"))
    if dispute.status != Dispute.Status.OPEN:
        raise Invalid(gettext("the dispute is already %(status)s") % {"status": worded(DISPUTE_STATUS, dispute.status)})
    if assignee is not None and not (
        assignee.is_active and assignee.is_staff and assignee.has_perm("games.decide_dispute")
    ):
        raise Invalid(gettext("%(value)s may not decide disputes") % {"value": assignee.get_username()})
    dispute.assigned_to = assignee
    dispute.save(update_fields=["assigned_to"])
    return dispute


# ---------------------------------------------------------------------------------------------
# Projection rebuild
# ---------------------------------------------------------------------------------------------
def rebuild_projection(game: Game) -> dict[str, Any]:
    """The Game columns as the events alone say they should be (checked against the row in tests
    and by `manage.py verify_games`)."""
    engine = engine_of(game)
    types = list(Event.objects.filter(game=game).values_list("type", flat=True))
    finished = Event.objects.filter(game=game, type=store.GAME_FINISHED).order_by("-seq").first()
    rolled = Event.objects.filter(game=game, type=store.GAME_ROLLED_BACK).order_by("-seq").first()
    state = store.replay_from_scratch(game)
    aborted = Event.objects.filter(game=game, type=store.GAME_ABORTED).first()
    if store.GAME_CANCELLED in types:
        status = Game.Status.CANCELLED
    elif aborted is not None:
        status = Game.Status.ABORTED
    elif finished and not (rolled and rolled.seq > finished.seq):
        status = Game.Status.FINISHED
    elif store.GAME_STARTED in types:
        status = Game.Status.ACTIVE
    else:
        status = Game.Status.OPEN
    outcome = engine.outcome(state) if state is not None else None
    if aborted is not None:
        return {"version": len(types), "status": status, "active_seats": [], "result": aborted.data["result"]}
    if finished is not None and "settled" in finished.data["result"]:
        # Staff stated this result (games.community.tournament_staff): no move of the game made it.
        return {"version": len(types), "status": status, "active_seats": [], "result": finished.data["result"]}
    if outcome is not None and finished is not None and "rating_changes" in finished.data["result"]:
        outcome = {**outcome, "rating_changes": finished.data["result"]["rating_changes"]}
    return {
        "version": len(types),
        "status": status,
        "active_seats": sorted(engine.active_players(state)) if state is not None and outcome is None else [],
        "result": outcome,
    }
