"""A tournament's life (docs/tournaments.md): created by its organiser, started at its time or by
them, moved on by the worker. Each public function is one thing an organiser or the worker does, in
one transaction, under the tournament's row lock.

The seed is committed by its hash at creation and revealed when the tournament is over. When the
last game of a round ends, the worker (told after the finishing write's commit,
games.play.scheduling) records the places and opens the next round (tournament_rounds). The
sweeper's twin, `due`, starts tournaments at their time and makes good a lost message.
"""

from __future__ import annotations

import logging
import math
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from games.community import tournament_lookup, tournament_registration, tournament_rounds, tournament_standings
from games.errors import Forbidden, Invalid, TooManyTournaments, TournamentClosed, WrongPlayerCount
from games.models import Game, Registration, Tournament, TournamentTable
from games.notifications import notify
from games.play import options as game_options, store
from games.play.bots import bot_account
from games.play.kinds import get_engine
from games.realtime import news
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
    if Tournament.objects.filter(organiser=user, status__in=tournament_lookup.OPEN).count() >= limit:
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
    news.announce_users([user.pk])
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


def _may_manage(tournament: Tournament, user) -> None:
    if not (user.pk == tournament.organiser_id or (user.is_staff and user.has_perm("games.change_tournament"))):
        raise Forbidden(gettext("only the organiser may do this"))


@transaction.atomic
def start(tournament_id, user) -> Tournament:
    """The organiser starts the tournament now (before its time, or one without a time)."""
    tournament = tournament_lookup.get(tournament_id, user=user, lock=True)
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
        r.rating = tournament_registration.rating_of(r.user_id, tournament.kind)
    # The initial order: strongest first by rating, then by lot from the seed (anyone can redo it).
    registered.sort(key=lambda r: (-r.rating, st.lot(tournament.seed, "initial", r.user_id)))
    for number, r in enumerate(registered):
        r.number = number
    Registration.objects.bulk_update(registered, ["number", "rating"])
    Registration.objects.filter(tournament=tournament, withdrawn_at__isnull=False).update(number=None)
    now = timezone.now()
    tournament.status, tournament.started_at = Tournament.Status.RUNNING, now
    players = [tournament_standings.pid(r.user_id) for r in registered]
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
    tournament_rounds.open_round(tournament, 1)


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
    tournament_lookup.notice(outbox, users, tournament, "cancelled", why)
    outbox.flush()


@transaction.atomic
def games_finished(game_ids: list[str]) -> int:
    """The worker's part when tournament games end (games.play.scheduling sends it after the
    finishing write's commit): each of their tournaments records the places and moves on."""
    ids = TournamentTable.objects.filter(game_id__in=game_ids).values_list("round__tournament_id", flat=True).distinct()
    moved = 0
    for tournament in Tournament.objects.select_for_update().filter(pk__in=list(ids)).order_by("pk"):
        news.announce_tournament(tournament.pk)  # a game's status and places, at least, changed
        before = tournament.current_round
        tournament_rounds.advance(tournament)
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
                    tournament_rounds.advance(tournament)
                if (tournament.current_round, tournament.status) != before:
                    counts["started" if starts else "advanced"] += 1
                    news.announce_tournament(tournament.pk)
        except Exception:
            log.exception("tournament %s could not move on", pk)
    return counts
