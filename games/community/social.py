"""Leaving a game well: resign, abort (alone early, by unanimous vote later), and claiming a
silent seat in a game without a clock. And the public lists around games: open seeks and games
to spectate. Each public function is one use case in one transaction (docs/social.md).

Every write here is a Turn (games.play.turns), or a plain append for the abort, so clocks, the
projection, the live channel and the notifications follow as they do for a move.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from games.notifications import notify
from games.play import access, clocks, store, turns
from games.errors import Forbidden, GAME_STATUS, GameNotActive, Invalid, NotYet, worded
from games.play.kinds import all_kinds, engine_of
from games.models import AbortVote, Event, Game, Invitation, Seat
from games.play.store import NewEvent


def _active(game: Game) -> None:
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(gettext("the game is %(status)s") % {"status": worded(GAME_STATUS, game.status)})


def _still_in(engine, state) -> set[int]:
    return set(range(state["players"])) - set(engine.forfeited(state))


# ---------------------------------------------------------------------------------------------
# Resign
# ---------------------------------------------------------------------------------------------
@transaction.atomic
def resign(game_id, user) -> Game:
    """The seat is out, as by a forfeit: the others play on (the server plays the seat's turns),
    and when one seat is left it wins."""
    game = access.get_game(game_id, lock=True, user=user)
    seat = access.require_player(game, user)
    _active(game)
    engine = engine_of(game)
    turn = turns.current(game, engine, timezone.now())
    if seat not in _still_in(engine, turn.state):
        raise Forbidden(gettext("you are already out of this game"))
    turn.settle()  # what fell due before the resignation is settled first
    if not turn.over:
        turn.forfeit(seat, "resigned", actor=seat, user_id=user.pk)
        turn.settle()
    turn.commit()
    return game


# ---------------------------------------------------------------------------------------------
# Abort
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AbortState:
    game: Game
    aborted: bool
    votes: list[int]
    needed: list[int]
    alone: bool  # true in the opening, while a seat has not moved: any seat may abort on its own


def own_moves(game: Game) -> dict[int, int]:
    """seat -> moves it made itself (the server's auto-moves for it do not count)."""
    return dict(
        Event.objects.filter(game=game, actor__isnull=False)
        .exclude(type__in=store.SERVER_TYPES)
        .exclude(data__has_key="auto")
        .values("actor")
        .annotate(n=Count("pk"))
        .values_list("actor", "n")
    )


def alone_allowed(players: int, moves: dict[int, int]) -> bool:
    """One seat may abort on its own while some seat has not made a move of its own, and only in
    the opening: fewer moves of their own than there are seats. A seat the server only ever
    auto-moves (one that never has to act) would otherwise keep the first condition true for the
    whole game, and a losing seat could walk out of a rated game late (docs/social.md#abort)."""
    return not set(range(players)) <= set(moves) and sum(moves.values()) < players


def _abort_state(game: Game, voter: int | None = None) -> tuple[Any, set[int], bool, set[int]]:
    engine = engine_of(game)
    state = store.state_at(game)
    still_in = _still_in(engine, state)
    if voter is not None and voter not in still_in:
        raise Forbidden(gettext("you are out of this game; only the seats still in decide an abort"))
    alone = alone_allowed(state["players"], own_moves(game))
    votes = set(AbortVote.objects.filter(game=game).values_list("seat", flat=True)) & still_in
    return state, still_in, alone, votes


def _aborted(game: Game, user, seat: int, reason: str) -> None:
    now = timezone.now()
    result = {"aborted": True, "reason": reason}
    stopped = clocks.advance(game.clocks or {}, game.options, set(game.active_seats or []), set(), set(), now)
    rows = store.append(
        game,
        game.version,
        [NewEvent(store.GAME_ABORTED, {"result": result, "seat": seat}, actor=seat, user_id=user.pk)],
        now,
        status=Game.Status.ABORTED,
        result=result,
        finished_at=now,
        active_seats=[],
        clocks=stopped,
        next_deadline=None,
        next_reminder=None,
    )
    others = list(Seat.objects.filter(game=game).exclude(user=user).values_list("user_id", flat=True))
    notify.send(others, game, "finished", {"result": result}, seq=rows[-1].seq)


@transaction.atomic
def vote_abort(game_id, user) -> AbortState:
    """Before every seat has moved, one seat's call aborts the game; afterwards it is a vote,
    and the game is aborted once every seat still in has voted."""
    game = access.get_game(game_id, lock=True, user=user)
    seat = access.require_player(game, user)
    _active(game)
    if (game.options or {}).get("tournament"):
        # Its round waits for it, and its place counts: a tournament game is played or resigned.
        raise Forbidden(gettext("a tournament game cannot be aborted; resign instead"))
    _, still_in, alone, votes = _abort_state(game, seat)
    if alone:
        _aborted(game, user, seat, "aborted before every seat had moved")
        return AbortState(game, True, sorted(votes | {seat}), sorted(still_in), alone)
    _, new_vote = AbortVote.objects.get_or_create(game=game, seat=seat)
    votes.add(seat)
    if still_in <= votes:
        _aborted(game, user, seat, "aborted by a unanimous vote")
        return AbortState(game, True, sorted(votes), sorted(still_in), alone)
    if new_vote:  # the seats yet to vote hear of it (once per vote, not per repeated call)
        asked = Seat.objects.filter(game=game, number__in=still_in - votes).values_list("user_id", flat=True)
        notify.send(asked, game, "abort_vote", {"seat": seat}, who=user.username)
    return AbortState(game, False, sorted(votes), sorted(still_in), alone)


@transaction.atomic
def withdraw_abort_vote(game_id, user) -> AbortState:
    game = access.get_game(game_id, lock=True, user=user)
    seat = access.require_player(game, user)
    _active(game)
    AbortVote.objects.filter(game=game, seat=seat).delete()
    _, still_in, alone, votes = _abort_state(game)
    return AbortState(game, False, sorted(votes), sorted(still_in), alone)


def abort_votes(game_id, user) -> AbortState:
    game = access.get_game(game_id, user=user)
    access.require_player(game, user)
    if game.status != Game.Status.ACTIVE:
        return AbortState(game, game.status == Game.Status.ABORTED, [], [], False)
    _, still_in, alone, votes = _abort_state(game)
    return AbortState(game, False, sorted(votes), sorted(still_in), alone)


# ---------------------------------------------------------------------------------------------
# A vanished player
# ---------------------------------------------------------------------------------------------
def silent_since(game: Game):
    """Since when the game has waited: the time of its last event (a move, a join, an expiry)."""
    return Event.objects.filter(game=game).order_by("-seq").values_list("created_at", flat=True).first()


@transaction.atomic
def claim_forfeit(game_id, user, seat: Any) -> Game:
    """In a game without a clock, a seat the game has waited on for VANISHED_AFTER_DAYS may be
    declared out by any other seat still in: a forfeit, as a clock's would be."""
    game = access.get_game(game_id, lock=True, user=user)
    claimant = access.require_player(game, user)
    _active(game)
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise Invalid(gettext("seat must be a whole number"))
    if game.clocks:
        raise Invalid(gettext("this game has a time control: its clocks deal with a silent seat"))
    engine = engine_of(game)
    now = timezone.now()
    turn = turns.current(game, engine, now)
    still_in = _still_in(engine, turn.state)
    if claimant not in still_in:
        raise Forbidden(gettext("you are out of this game"))
    if seat == claimant:
        raise Invalid(gettext("that is your own seat: resign instead"))
    if seat not in still_in:
        raise Invalid(gettext("seat %(seat)s is not a seat still in this game") % {"seat": seat})
    if seat not in (game.active_seats or []):
        raise NotYet(gettext("seat %(seat)s has nothing to do now: the game is not waiting for it") % {"seat": seat})
    due = silent_since(game) + timedelta(days=settings.VANISHED_AFTER_DAYS)
    if now < due:
        raise NotYet(
            gettext(
                "seat %(seat)s may be claimed once the game has waited %(VANISHED_AFTER_DAYS)g days, from %(value)s"
            )
            % {"seat": seat, "VANISHED_AFTER_DAYS": settings.VANISHED_AFTER_DAYS, "value": due.isoformat()}
        )
    turn.forfeit(seat, "vanished", actor=claimant, user_id=user.pk)
    turn.settle()
    turn.commit()
    return game


# ---------------------------------------------------------------------------------------------
# Lists
# ---------------------------------------------------------------------------------------------
def visible_to(games: QuerySet, user) -> QuerySet:
    """Public games, and private ones the user sits in or is invited to."""
    seated = Seat.objects.filter(game=OuterRef("pk"), user=user)
    invited = Invitation.objects.filter(
        Q(status=Invitation.Status.ACCEPTED) | Q(status=Invitation.Status.PENDING, expires_at__gt=timezone.now()),
        game=OuterRef("pk"),
        invitee=user,
    )
    return games.filter(Q(private=False) | Exists(seated) | Exists(invited))


def _kind(kind: str | None) -> str | None:
    if kind is not None and kind not in all_kinds():
        raise Invalid(gettext("kind must be one of %(value)s") % {"value": ", ".join(all_kinds())})
    return kind


TIME_CONTROLS = ("none", "per_move", "bank")


def seeks(kind: str | None = None, players: int | None = None, time_control: str | None = None) -> QuerySet:
    """Public open games with a free seat, oldest first (the longest waiting)."""
    games = (
        Game.objects.filter(status=Game.Status.OPEN, private=False)
        .annotate(taken=Count("seat_set"))
        .filter(taken__lt=F("seats"))
    )
    if _kind(kind):
        games = games.filter(kind=kind)
    if players is not None:
        games = games.filter(seats=players)
    if time_control is not None:
        if time_control not in TIME_CONTROLS:
            raise Invalid(gettext("time_control must be one of %(value)s") % {"value": ", ".join(TIME_CONTROLS)})
        games = games.filter(options__time_control=time_control)
    return games.prefetch_related("seat_set__user").order_by("created_at")


def spectatable(kind: str | None = None) -> QuerySet:
    """Public games in progress, the most recently started first."""
    games = Game.objects.filter(status=Game.Status.ACTIVE, private=False)
    if _kind(kind):
        games = games.filter(kind=kind)
    return games.prefetch_related("seat_set__user").order_by("-started_at")
