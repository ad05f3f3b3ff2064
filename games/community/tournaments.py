"""Tournaments: the use cases (docs/tournaments.md). Each public function is one thing an
organiser, a player, staff or the worker does, in one transaction, under the tournament's row lock.

The pairings and standings are the pure core's (games.tournaments): a function of the players in
their initial order (by rating at the start, then by lot), the rounds played and the tournament's
seed, committed by its hash at creation and revealed when the tournament is over. A round's games
are ordinary games, created, seated and started by the server at once (services.create_table);
when the last of them ends, the worker (told after the finishing write's commit,
games.play.scheduling) records the places and opens the next round. The sweeper's twin,
`due`, starts tournaments at their time and makes good a lost message.
"""

from __future__ import annotations

import logging
import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from games.community import social
from games.errors import (
    AlreadyJoined,
    Forbidden,
    Invalid,
    NotFound,
    TooManyTournaments,
    TournamentClosed,
    WrongPlayerCount,
)
from games.models import Game, Registration, Tournament, TournamentRound, TournamentTable
from games.notifications import notify
from games.play import lobby as services, options as game_options, store
from games.play.bots import bot_account
from games.play.kinds import all_kinds, get_engine
from games.realtime import live
from games.tournaments import pairing, standings as st

log = logging.getLogger(__name__)

NAME_MAX = 100
MAX_ROUNDS = 30
MAX_CAPACITY = 1024
# Every pair meets in a round robin: its rounds grow with the field, and so does the search for a
# balanced schedule at tables (24 players at four seats: about 3 s).
MAX_ROUND_ROBIN = 24
DEFAULT_CAPACITY = 64
MAX_DAYS_AHEAD = 90
MAX_ROUND_HOURS = 60 * 24
OPEN = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------
def get(tournament_id, user=None, lock: bool = False) -> Tournament:
    """The tournament; a private one is not there for anyone but its organiser, staff and its
    registered players (404, as for one that does not exist)."""
    import uuid

    try:
        key = tournament_id if isinstance(tournament_id, uuid.UUID) else uuid.UUID(str(tournament_id))
    except (ValueError, TypeError, AttributeError):
        raise NotFound(gettext("no such tournament")) from None
    found = Tournament.objects.select_for_update() if lock else Tournament.objects
    tournament = found.filter(pk=key).first()
    if tournament is None or (user is not None and not _may_see(tournament, user)):
        raise NotFound(gettext("no such tournament"))
    if lock:
        # Locked only to be changed: its followers hear of it once the change commits (a refusal
        # rolls back and says nothing; a change that moved nothing costs them a read that sends
        # nothing).
        live.announce_tournament(tournament.pk)
    return tournament


def _may_see(tournament: Tournament, user) -> bool:
    if not tournament.private:
        return True
    if not user.is_authenticated:
        return False
    return user.pk == tournament.organiser_id or user.is_staff or tournament.registrations.filter(user=user).exists()


def listed(kind: str | None = None, status: str | None = None):
    """Public tournaments, the ones to come and in progress first, newest first."""
    if kind is not None and kind not in all_kinds():
        raise Invalid(gettext("no game kind '%(kind)s'") % {"kind": kind})
    if status is not None and status not in Tournament.Status.values:
        raise Invalid(gettext("status must be one of %(values)s") % {"values": ", ".join(Tournament.Status.values)})
    found = Tournament.objects.filter(private=False)
    if kind:
        found = found.filter(kind=kind)
    if status:
        found = found.filter(status=status)
    return found.order_by("-created_at")


def scoring(tournament: Tournament) -> st.Scoring:
    bye = None if tournament.bye_points is None else Fraction(tournament.bye_points).limit_denominator(2)
    if tournament.table_size == 2:
        return st.Scoring.two_player(1 if bye is None else bye)
    return st.Scoring.by_table(tournament.table_size, bye)


def _bye_points(value: Any, size: int) -> float | None:
    """What a bye is worth, in half points, from nothing to what a table's winner scores."""
    most = 1 if size == 2 else 2 * (size - 1)
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not 0 <= value <= most
        or (value * 2) != int(value * 2)
    ):
        raise Invalid(
            gettext("bye_points must be a number of half points from 0 to %(most)s, or null") % {"most": most}
        )
    return float(value)


def _pid(user_id: int) -> str:
    return str(user_id)


def history(tournament: Tournament) -> list[st.Event]:
    """The rounds as the pure core reads them: each table (places once over) and each bye."""
    events: list[st.Event] = []
    for number, byes in TournamentRound.objects.filter(tournament=tournament).values_list("number", "byes"):
        events += [st.Bye(number, _pid(u)) for u in byes]
    for number, players, places in (
        TournamentTable.objects.filter(round__tournament=tournament)
        .order_by("round__number", "number")
        .values_list("round__number", "players", "places")
    ):
        events.append(st.Table(number, tuple(map(_pid, players)), tuple(places) if places else None))
    return events


def _field(tournament: Tournament) -> list[Registration]:
    """Every player who took part, in the initial order."""
    return list(
        Registration.objects.filter(tournament=tournament, number__isnull=False)
        .select_related("user")
        .order_by("number")
    )


def _playing(registrations: list[Registration]) -> list[Registration]:
    """Those still in: not withdrawn or removed, the account still open (a vanished player
    forfeits what is left)."""
    return [r for r in registrations if r.withdrawn_at is None and r.user.is_active]


@dataclass(frozen=True)
class Standing:
    rank: int
    registration: Registration
    points: Fraction | None
    tiebreaks: dict[str, Fraction]
    round_reached: int | None = None


def standings(tournament: Tournament) -> list[Standing]:
    """The standings now (final once the tournament is over), in the published order
    (docs/tournaments.md): Swiss and round robin by points and tie-breaks; a knockout by how far
    each player went, then the place at their last table, then the seed."""
    field = _field(tournament)
    if not field:
        return []
    by_id = {_pid(r.user_id): r for r in field}
    events = history(tournament)
    if tournament.format == Tournament.Format.KNOCKOUT:
        reached: dict[str, tuple[int, int]] = {p: (0, 0) for p in by_id}
        for event in events:
            if isinstance(event, st.Bye):
                reached[event.player] = (event.round, 1)
            elif event.places is not None:
                for p, place in zip(event.players, event.places):
                    reached[p] = (event.round, place)
            else:
                for p in event.players:
                    reached[p] = (event.round, 0)
        ranked = sorted(by_id, key=lambda p: (-reached[p][0], reached[p][1], by_id[p].number))
        return [Standing(i + 1, by_id[p], None, {}, reached[p][0]) for i, p in enumerate(ranked)]
    rows = st.standings(
        list(by_id), events, scoring(tournament), tournament.seed, two_player=tournament.table_size == 2
    )
    return [Standing(row.rank, by_id[row.player], row.points, row.tiebreaks) for row in rows]


# ---------------------------------------------------------------------------------------------
# Create
# ---------------------------------------------------------------------------------------------
def _whole(value: Any, name: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise Invalid(
            gettext("%(name)s must be a whole number from %(low)s to %(high)s")
            % {"name": name, "low": low, "high": high}
        )
    return value


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise Invalid(gettext("%(name)s must be true or false") % {"name": name})
    return value


def _competitive(engine, size: int, options: dict[str, Any]) -> list[list[int]] | None:
    """The sides of a game at `size` seats: a single side is a cooperative game, which has no
    winner and so no tournament."""
    state = engine.setup(size, game_options.engine_options(engine, options), "tournament-check")
    teams = engine.teams(state)
    if teams is not None and len(teams) < 2:
        raise Invalid(
            gettext("%(title)s at %(seats)s seats is cooperative: it has no winner to rank")
            % {"title": engine.title, "seats": size}
        )
    return teams


def _limit(user) -> None:
    limit = settings.TOURNAMENTS_PER_USER
    if Tournament.objects.filter(organiser=user, status__in=OPEN).count() >= limit:
        raise TooManyTournaments(
            gettext("at most %(limit)s tournaments of yours open or running at once") % {"limit": limit},
            limit=limit,
            retry_after=3600,
        )


@transaction.atomic
def create(
    user,
    name: Any,
    kind: Any,
    format: Any,
    table_size: Any,
    options: Any = None,
    rounds: Any = None,
    through: Any = 1,
    starts_at: Any = None,
    capacity: Any = None,
    min_rating: Any = None,
    private: Any = False,
    bots_fill: Any = False,
    bot_level: Any = 2,
    rated: Any = True,
    bye_points: Any = None,
    round_hours: Any = None,
) -> Tournament:
    """A new tournament, open for registration. Its seed is drawn now and only its hash shown
    until the end. The organiser is not registered by this."""
    from accounts.models import User

    if User.objects.select_for_update(no_key=True).filter(pk=user.pk, is_active=True).first() is None:
        raise Forbidden(gettext("this account is closed"))
    if user.is_guest:
        raise Forbidden(gettext("a guest account cannot organise tournaments; sign up first"))
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX:
        raise Invalid(gettext("name must be a non-empty text of at most %(count)s characters") % {"count": NAME_MAX})
    if not isinstance(kind, str):
        raise Invalid(gettext("kind must be a string"))
    engine = get_engine(kind)
    if format not in Tournament.Format.values:
        raise Invalid(gettext("format must be one of %(values)s") % {"values": ", ".join(Tournament.Format.values)})
    size = _whole(table_size, "table_size", engine.min_players, engine.max_players)
    filled = game_options.validate(engine, options)
    if filled["time_control"] == "none":
        # A round ends when its last game does: every game needs a clock to end by.
        raise Invalid(gettext("options.time_control must be per_move or bank: a tournament's games need a clock"))
    teams = _competitive(engine, size, filled)
    if format == Tournament.Format.SWISS:
        rounds = _whole(rounds, "rounds", 1, MAX_ROUNDS)
    elif rounds is not None:
        raise Invalid(
            gettext("rounds is set for a Swiss only: a round robin's and a knockout's follow from the players")
        )
    # Every table, down to the game's least, must put someone out, or a knockout never ends.
    through = _whole(through, "through", 1, max(1, min(size, engine.min_players) - 1))
    if format == Tournament.Format.KNOCKOUT:
        if teams is not None:
            raise Invalid(
                gettext("a knockout ranks players, and a team game places its teams: choose Swiss or round robin")
            )
        if size == 2 and through != 1:
            raise Invalid(gettext("through is 1 in a knockout of 2-player games"))
    elif through != 1:
        raise Invalid(gettext("through is for a knockout at tables of three or more"))
    now = timezone.now()
    if starts_at is not None:
        if not isinstance(starts_at, datetime) or starts_at.tzinfo is None:
            raise Invalid(gettext("starts_at must be a date and time with its offset"))
        if not now < starts_at <= now + timedelta(days=MAX_DAYS_AHEAD):
            raise Invalid(gettext("starts_at must be in the future, within %(days)s days") % {"days": MAX_DAYS_AHEAD})
    most = MAX_ROUND_ROBIN if format == Tournament.Format.ROUND_ROBIN else MAX_CAPACITY
    capacity = min(DEFAULT_CAPACITY, most) if capacity is None else _whole(capacity, "capacity", max(2, size), most)
    if min_rating is not None and (
        isinstance(min_rating, bool)
        or not isinstance(min_rating, (int, float))
        or not math.isfinite(min_rating)
        or not -1000 <= min_rating <= 10000
    ):
        raise Invalid(gettext("min_rating must be a number from -1000 to 10000, or null"))
    private = _flag(private, "private")
    bots_fill = _flag(bots_fill, "bots_fill")
    bot_level = _whole(bot_level, "bot_level", 1, 3)
    rated = _flag(rated, "rated")
    bye_points = _bye_points(bye_points, size)
    round_hours = None if round_hours is None else _whole(round_hours, "round_hours", 1, MAX_ROUND_HOURS)
    _limit(user)
    seed = secrets.token_hex(32)
    # The organiser's own streams follow their tournaments: woken, they begin to follow this one.
    live.announce_users([user.pk])
    return Tournament.objects.create(
        name=name.strip(),
        kind=kind,
        format=format,
        options=filled,
        table_size=size,
        rounds=rounds,
        through=through,
        starts_at=starts_at,
        capacity=capacity,
        min_rating=min_rating,
        private=private,
        join_code=secrets.token_urlsafe(16) if private else None,
        bots_fill=bots_fill,
        bot_level=bot_level,
        rated=rated,
        bye_points=bye_points,
        round_hours=round_hours,
        organiser=user,
        seed=seed,
        seed_hash=store.seed_hash(seed),
    )


# ---------------------------------------------------------------------------------------------
# Register, withdraw
# ---------------------------------------------------------------------------------------------
def _rating(user_id: int, kind: str) -> float:
    from accounts.models import Rating

    return Rating.objects.filter(user_id=user_id, kind=kind).values_list("rating", flat=True).first() or 0.0


def late_registration(tournament: Tournament) -> bool:
    """A Swiss takes players until its last round has begun: they join the next round on 0
    points. A round robin's schedule and a knockout's bracket are fixed at the start."""
    return (
        tournament.format == Tournament.Format.SWISS
        and tournament.status == Tournament.Status.RUNNING
        and tournament.current_round < (tournament.rounds or 0)
    )


def _notice(
    outbox: notify.Outbox,
    users,
    tournament: Tournament,
    event: str,
    what: notify.Said,
    game: Game | None = None,
    **data: Any,
) -> None:
    outbox.add(
        [u for u in users], game, "tournament", {"tournament": str(tournament.pk), "event": event, **data}, what=what
    )


@transaction.atomic
def register(tournament_id, user, code: Any = None) -> Registration:
    """Take a place: while registration is open (or late, in a Swiss), within the capacity and
    the minimum rating; a private tournament by its join link's code only."""
    tournament = get(tournament_id, lock=True)
    if (
        tournament.private
        and (not isinstance(code, str) or not secrets.compare_digest(code, tournament.join_code or ""))
        and not Registration.objects.filter(tournament=tournament, user=user).exists()
    ):
        raise NotFound(gettext("no such tournament"))
    if user.is_bot:
        raise Forbidden(gettext("bots take places only by filling tables"))
    if not (tournament.status == Tournament.Status.REGISTERING or late_registration(tournament)):
        raise TournamentClosed(gettext("registration for this tournament is closed"))
    if tournament.paused:
        raise TournamentClosed(gettext("the tournament is paused"))
    mine = Registration.objects.filter(tournament=tournament, user=user).first()
    if mine is not None and mine.withdrawn_at is None:
        raise AlreadyJoined(gettext("you are registered already"))
    if mine is not None:
        raise TournamentClosed(gettext("you left this tournament; you cannot come back to it"))
    rating = _rating(user.pk, tournament.kind)
    if tournament.min_rating is not None and rating < tournament.min_rating:
        raise Forbidden(
            gettext("this tournament needs a %(kind)s rating of %(least)s; yours is %(rating)s")
            % {"kind": tournament.kind, "least": f"{tournament.min_rating:g}", "rating": f"{rating:g}"}
        )
    taken = Registration.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count()
    if taken >= tournament.capacity:
        raise TournamentClosed(gettext("all %(count)s places are taken") % {"count": tournament.capacity})
    limit = settings.TOURNAMENT_REGISTRATIONS_PER_USER
    if Registration.objects.filter(user=user, withdrawn_at__isnull=True, tournament__status__in=OPEN).count() >= limit:
        raise TooManyTournaments(
            gettext("at most %(limit)s tournaments at once: withdraw from one or wait for its end") % {"limit": limit},
            limit=limit,
            retry_after=3600,
        )
    number = None
    if tournament.status == Tournament.Status.RUNNING:
        last = Registration.objects.filter(tournament=tournament).exclude(number=None).order_by("-number").first()
        number = (last.number + 1) if last else 0
    registration = Registration.objects.create(tournament=tournament, user=user, number=number, rating=rating)
    outbox = notify.Outbox()
    _notice(
        outbox,
        [user.pk],
        tournament,
        "registered",
        notify.Said(gettext_noop("You are registered for %(name)s"), name=tournament.name),
    )
    outbox.flush()
    return registration


def _forfeit_games(tournament: Tournament, user) -> int:
    """Resign the player's games in progress in this tournament (the others play on)."""
    games = list(
        Game.objects.filter(
            tournament_table__round__tournament=tournament, status=Game.Status.ACTIVE, seat_set__user=user
        ).values_list("pk", flat=True)
    )
    resigned = 0
    for game_id in games:
        try:
            social.resign(game_id, user)
            resigned += 1
        except Forbidden:  # out of that game already
            continue
    return resigned


@transaction.atomic
def withdraw(tournament_id, user) -> Registration:
    """Leave: before the start the place is given back (and may be taken again); once it runs,
    the player's games in progress are resigned and they are paired no more (they stay in the
    standings, and cannot come back)."""
    tournament = get(tournament_id, user=user, lock=True)
    return _leave(tournament, user, removed=False)


def _leave(tournament: Tournament, user, removed: bool) -> Registration:
    mine = Registration.objects.filter(tournament=tournament, user=user).first()
    if mine is None or mine.withdrawn_at is not None:
        raise NotFound(gettext("you are not registered"))
    if tournament.status not in OPEN:
        raise TournamentClosed(gettext("the tournament is over"))
    if tournament.status == Tournament.Status.REGISTERING and not removed:
        mine.delete()  # the place is given back; registering again takes a new one
        return mine
    mine.withdrawn_at, mine.removed = timezone.now(), removed
    mine.save(update_fields=["withdrawn_at", "removed"])
    if tournament.status == Tournament.Status.RUNNING:
        _forfeit_games(tournament, user)
    return mine


def _may_manage(tournament: Tournament, user) -> None:
    if not (user.pk == tournament.organiser_id or (user.is_staff and user.has_perm("games.change_tournament"))):
        raise Forbidden(gettext("only the organiser may do this"))


# ---------------------------------------------------------------------------------------------
# Start
# ---------------------------------------------------------------------------------------------
@transaction.atomic
def start(tournament_id, user) -> Tournament:
    """The organiser starts the tournament now (before its time, or one without a time)."""
    tournament = get(tournament_id, user=user, lock=True)
    _may_manage(tournament, user)
    if tournament.status != Tournament.Status.REGISTERING:
        raise TournamentClosed(gettext("the tournament has started already"))
    _begin(tournament, cancel_if_short=False)
    return tournament


def _least(tournament: Tournament) -> int:
    return tournament.table_size if tournament.table_size > 2 else 2


def _begin(tournament: Tournament, cancel_if_short: bool) -> None:
    registered = list(
        Registration.objects.filter(
            tournament=tournament, withdrawn_at__isnull=True, user__is_active=True
        ).select_related("user")
    )
    size = tournament.table_size
    if tournament.bots_fill and registered:
        target = max(size, math.ceil(len(registered) / size) * size)
        busy = {r.user_id for r in registered}
        for _ in range(target - len(registered)):
            bot = bot_account(tournament.bot_level, busy)
            busy.add(bot.pk)
            registered.append(Registration.objects.create(tournament=tournament, user=bot))
    if len(registered) < _least(tournament):
        if not cancel_if_short:
            raise WrongPlayerCount(
                gettext("%(count)s registered; the tournament needs at least %(least)s")
                % {"count": len(registered), "least": _least(tournament)}
            )
        _cancel(
            tournament,
            notify.Said(gettext_noop("%(name)s is cancelled: too few players registered"), name=tournament.name),
        )
        return
    for r in registered:
        r.rating = _rating(r.user_id, tournament.kind)
    # The initial order: strongest first by rating, then by lot from the seed (anyone can redo it).
    registered.sort(key=lambda r: (-r.rating, st.lot(tournament.seed, "initial", r.user_id)))
    for number, r in enumerate(registered):
        r.number = number
    Registration.objects.bulk_update(registered, ["number", "rating"])
    Registration.objects.filter(tournament=tournament, withdrawn_at__isnull=False).update(number=None)
    now = timezone.now()
    tournament.status, tournament.started_at = Tournament.Status.RUNNING, now
    players = [_pid(r.user_id) for r in registered]
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        engine = get_engine(tournament.kind)
        try:
            planned = (
                pairing.round_robin_pairs(players, tournament.seed)
                if size == 2
                else pairing.round_robin_tables(players, size, tournament.seed, smallest=engine.min_players)
            )
        except pairing.PairingError:
            if not cancel_if_short:
                raise WrongPlayerCount(
                    gettext("no balanced round robin of %(count)s players at tables of %(seats)s")
                    % {"count": len(players), "seats": size}
                ) from None
            _cancel(
                tournament,
                notify.Said(
                    gettext_noop("%(name)s is cancelled: no round robin fits its players"), name=tournament.name
                ),
            )
            return
        tournament.plan = [
            {"tables": [list(map(int, t)) for t in r.tables], "byes": list(map(int, r.byes))} for r in planned
        ]
        tournament.rounds = len(planned)
    elif tournament.format == Tournament.Format.KNOCKOUT:
        tournament.rounds = _knockout_rounds(len(players), size, tournament.through, get_engine(tournament.kind))
    tournament.save()
    _open_round(tournament, 1)


def _knockout_rounds(n: int, size: int, through: int, engine) -> int:
    if size == 2:
        return max(1, (n - 1).bit_length())
    rounds = 0
    while n >= engine.min_players:
        rounds += 1
        if n <= size:
            break
        sizes, byes = pairing.table_sizes(n, size, engine.min_players)
        after = byes + through * len(sizes)
        if after >= n:  # cannot happen with through below the least table; never loop for ever
            break
        n = after
    return max(rounds, 1)


def _cancel(tournament: Tournament, why: notify.Said) -> None:
    tournament.status, tournament.finished_at = Tournament.Status.CANCELLED, timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    users = Registration.objects.filter(
        tournament=tournament, withdrawn_at__isnull=True, user__is_bot=False
    ).values_list("user_id", flat=True)
    outbox = notify.Outbox()
    _notice(outbox, users, tournament, "cancelled", why)
    outbox.flush()


# ---------------------------------------------------------------------------------------------
# Rounds
# ---------------------------------------------------------------------------------------------
def _knockout_round(
    tournament: Tournament, number: int, playing: list[str], seeded: list[str]
) -> tuple[pairing.Round, list[list[str]] | None]:
    """The knockout's next round: 2-player, the bracket's slots (a slot whose player left is
    empty, and its opponent walks over); at tables, the players through, dealt again."""
    still = set(playing)
    if tournament.table_size == 2:
        if number == 1:
            slots = [list(s) for s in pairing.knockout_slots(seeded)]
        else:
            last = TournamentRound.objects.get(tournament=tournament, number=number - 1)
            winners = _slot_winners(tournament, last, seeded)
            slots = [[p for p in winners[k : k + 2] if p is not None] for k in range(0, len(winners), 2)]
        slots = [[p for p in slot if p in still] for slot in slots]
        tables = tuple(tuple(slot) for slot in slots if len(slot) == 2)
        return pairing.Round(tables, tuple(slot[0] for slot in slots if len(slot) == 1)), slots
    if number == 1:
        entrants = [p for p in seeded if p in still]
    else:
        last = TournamentRound.objects.get(tournament=tournament, number=number - 1)
        through = [_pid(u) for u in last.byes]
        for table in last.tables.all():
            played = st.Table(number - 1, tuple(map(_pid, table.players)), tuple(table.places))
            through += pairing.knockout_through(played, tournament.through, seeded)
        entrants = sorted((p for p in through if p in still), key=seeded.index)
    engine = get_engine(tournament.kind)
    return pairing.knockout_tables(entrants, tournament.table_size, smallest=engine.min_players), None


def _slot_winners(tournament: Tournament, rnd: TournamentRound, seeded: list[str]) -> list[str | None]:
    """Who came out of each slot of a 2-player knockout round, in bracket order (None: nobody)."""
    results = {tuple(map(_pid, t.players)): t for t in rnd.tables.all()}
    winners: list[str | None] = []
    for slot in rnd.bracket or []:
        slot = [_pid(p) for p in slot]
        if len(slot) == 1:
            winners.append(slot[0])
        elif len(slot) == 2:
            table = results[tuple(slot)] if tuple(slot) in results else results[tuple(reversed(slot))]
            played = st.Table(rnd.number, tuple(map(_pid, table.players)), tuple(table.places))
            winners.append(pairing.knockout_through(played, 1, seeded)[0])
        else:
            winners.append(None)
    return winners


def _plan_round(tournament: Tournament, number: int, field: list[Registration]) -> tuple[pairing.Round, Any]:
    playing = [_pid(r.user_id) for r in _playing(field)]
    seeded = [_pid(r.user_id) for r in field]
    size = tournament.table_size
    if tournament.format == Tournament.Format.SWISS:
        events = history(tournament)
        if size == 2:
            return pairing.swiss_pairs(playing, events, tournament.seed, scoring(tournament)), None
        return pairing.swiss_tables(playing, events, tournament.seed, size, scoring(tournament)), None
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        planned = tournament.plan[number - 1]
        still = set(playing)
        least = get_engine(tournament.kind).min_players
        tables, byes = [], [_pid(p) for p in planned["byes"] if _pid(p) in still]
        for table in planned["tables"]:
            kept = tuple(_pid(p) for p in table if _pid(p) in still)
            if len(kept) >= max(2, least):
                tables.append(kept)
            else:  # the others left: who is still here waits this round out
                byes += kept
        return pairing.Round(tuple(tables), tuple(byes)), None
    return _knockout_round(tournament, number, playing, seeded)


def _open_round(tournament: Tournament, number: int) -> TournamentRound | None:
    """Pair round `number` and create its games at once, every clock running; notify each player
    of their game. A round that cannot be paired (too few players left) ends the tournament."""
    field = _field(tournament)
    try:
        planned, bracket = _plan_round(tournament, number, field)
    except pairing.PairingError:
        _finish(tournament)
        return None
    if not planned.tables:
        _finish(tournament)
        return None
    now = timezone.now()
    rnd = TournamentRound.objects.create(
        tournament=tournament,
        number=number,
        started_at=now,
        byes=[int(p) for p in planned.byes],
        bracket=[[int(p) for p in slot] for slot in bracket] if bracket else None,
    )
    users = {r.user_id: r.user for r in field}
    engine = get_engine(tournament.kind)
    outbox = notify.Outbox()
    for index, seats in enumerate(planned.tables, start=1):
        players = [users[int(p)] for p in seats]
        bots = {str(u.pk): u.bot_level for u in players if u.is_bot}
        rated = tournament.rated and (not bots or settings.BOTS_RATED)
        server = {"tournament": str(tournament.pk), **({"bots": bots} if bots else {})}
        game = services.create_table(tournament.organiser, tournament.kind, tournament.options, players, rated, server)
        TournamentTable.objects.create(round=rnd, number=index, game=game, players=[u.pk for u in players])
        _notice(
            outbox,
            [u.pk for u in players if not u.is_bot],
            tournament,
            "round",
            notify.Said(
                gettext_noop("Round %(round)s of %(name)s: your game of %(title)s has begun"),
                round=number,
                name=tournament.name,
                title=engine.title,
            ),
            game,
            round=number,
            table=index,
        )
    byes = [int(p) for p in planned.byes if not users[int(p)].is_bot]
    _notice(
        outbox,
        byes,
        tournament,
        "bye",
        notify.Said(gettext_noop("Round %(round)s of %(name)s: you have a bye"), round=number, name=tournament.name),
        round=number,
    )
    outbox.flush()
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    return rnd


def _places(game: Game) -> list[int] | None:
    result = game.result or {}
    if game.status == Game.Status.FINISHED and isinstance(result.get("places"), list):
        return list(result["places"])
    if game.status in (Game.Status.ABORTED, Game.Status.CANCELLED):
        return [1] * game.seats  # counts as a draw for everyone at the table
    return None


def _record(tournament: Tournament) -> TournamentRound | None:
    """Write the places of the current round's games that are over; the round if it is over."""
    rnd = TournamentRound.objects.filter(tournament=tournament, number=tournament.current_round).first()
    if rnd is None or rnd.finished_at is not None:
        return rnd
    over = True
    for table in rnd.tables.select_related("game"):
        if table.places is None:
            places = _places(table.game)
            if places is None:
                over = False
                continue
            table.places = places
            table.save(update_fields=["places"])
    if over:
        rnd.finished_at = timezone.now()
        rnd.save(update_fields=["finished_at"])
    return rnd


def _advance(tournament: Tournament) -> None:
    """With the tournament's row locked: record what is over; open the next round or finish."""
    if tournament.status != Tournament.Status.RUNNING:
        return
    rnd = _record(tournament)
    if rnd is None or rnd.finished_at is None or tournament.paused:
        return
    if tournament.current_round >= (tournament.rounds or 0):
        _finish(tournament)
        return
    _open_round(tournament, tournament.current_round + 1)


def _finish(tournament: Tournament) -> None:
    tournament.status, tournament.finished_at = Tournament.Status.FINISHED, timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    outbox = notify.Outbox()
    ranked = standings(tournament)
    for row in ranked:
        row.registration.final_rank = row.rank
    Registration.objects.bulk_update([row.registration for row in ranked], ["final_rank"])
    for row in ranked:
        if not row.registration.user.is_bot:
            _notice(
                outbox,
                [row.registration.user_id],
                tournament,
                "over",
                notify.Said(
                    gettext_noop("%(name)s is over: your place is %(rank)s of %(count)s"),
                    name=tournament.name,
                    rank=row.rank,
                    count=len(ranked),
                ),
                rank=row.rank,
            )
    outbox.flush()


@transaction.atomic
def games_finished(game_ids: list[str]) -> int:
    """The worker's part when tournament games end (games.play.scheduling sends it after the
    finishing write's commit): each of their tournaments records the places and moves on."""
    ids = TournamentTable.objects.filter(game_id__in=game_ids).values_list("round__tournament_id", flat=True).distinct()
    moved = 0
    for tournament in Tournament.objects.select_for_update().filter(pk__in=list(ids)).order_by("pk"):
        live.announce_tournament(tournament.pk)  # a game's status and places, at least, changed
        before = tournament.current_round
        _advance(tournament)
        moved += tournament.current_round != before or tournament.status != Tournament.Status.RUNNING
    return moved


def due(now: datetime | None = None) -> dict[str, int]:
    """Beat's part (every SWEEP_INTERVAL_SECONDS): start the tournaments whose time has come
    (cancelled with too few players) and advance a running one whose round is over, should the
    message of its last game's end have been lost. Each tournament in its own transaction; one
    tournament's trouble is logged and holds up no other."""
    now = now or timezone.now()
    counts = {"started": 0, "advanced": 0}
    starting = list(
        Tournament.objects.filter(status=Tournament.Status.REGISTERING, starts_at__lte=now).values_list(
            "pk", flat=True
        )[:50]
    )
    # No game in progress: the round is over, or between rounds.
    stuck = list(
        Tournament.objects.filter(status=Tournament.Status.RUNNING, paused=False)
        .filter(~Q(round_set__tables__game__status=Game.Status.ACTIVE))
        .values_list("pk", flat=True)
        .distinct()[:50]
    )
    for pk, starts in [(pk, True) for pk in starting] + [(pk, False) for pk in stuck]:
        try:
            with transaction.atomic():
                tournament = Tournament.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
                if tournament is None:
                    continue
                before = (tournament.current_round, tournament.status)
                if starts and tournament.status == Tournament.Status.REGISTERING:
                    _begin(tournament, cancel_if_short=True)
                elif not starts:
                    _advance(tournament)
                if (tournament.current_round, tournament.status) != before:
                    counts["started" if starts else "advanced"] += 1
                    live.announce_tournament(tournament.pk)
        except Exception:
            log.exception("tournament %s could not move on", pk)
    return counts
