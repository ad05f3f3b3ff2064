"""A Turn is one write to a game: the moves, expiries and forfeits decided in one transaction,
with the clocks, the projection and the notifications that follow from them.

Order of work (DESIGN, "Time"): a write that arrives after a deadline first settles what is due
(`settle`: expiries, then the forfeited seats' turns), then judges the new move, then settles
again, then commits everything with one append.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import Q

from games.notifications import notify
from games.play import clocks, scheduling, store
from games.realtime.news import user_messages
from games.play import bots as bot_trigger
from games.engines import base
from games.models import Event, Game, Seat
from games.play.store import NewEvent

# An engine always ends, but a game whose every seat is out of time could chain expiries: bound it.
MAX_SETTLE_STEPS = 500


def vacations_for(game: Game) -> dict[int, list[tuple[datetime, datetime]]]:
    return vacations_for_games([game]).get(game.pk, {})


def vacations_for_games(games: list[Game]) -> dict[Any, dict[int, list[tuple[datetime, datetime]]]]:
    """game id -> seat -> its user's vacation intervals, for many games in one query."""
    found: dict[Any, dict[int, list]] = {}
    with connection.cursor() as cursor:
        cursor.execute(
            'SELECT s.game_id, s.number, v.start, v."end" FROM "accounts_vacation" v '
            'JOIN "games_seat" s ON s.user_id = v.user_id WHERE s.game_id = ANY(%s)',
            [[g.pk for g in games]],
        )
        rows = cursor.fetchall()
    for game_id, seat, start, end in rows:
        found.setdefault(game_id, {}).setdefault(seat, []).append((start, end))
    return found


def seeds_of(games: list[Game]) -> dict[Any, str]:
    """game id -> its secret seed (in its first event), for many games in one query."""
    return dict(Event.objects.filter(game__in=games, seq=1).values_list("game_id", "data__seed"))


def current(game: Game, engine: base.Engine, at: datetime, **kwargs: Any) -> Turn:
    """A turn on the game as it stands. Its state is read from the event store here: the use
    cases reach the store through turns only, so a move enters the log from one place."""
    return Turn(game, engine, store.state_at(game), at, **kwargs)


def as_read(game: Game, engine: base.Engine, at: datetime) -> Turn:
    """`current`, with the seats and vacations the game's read brought (access.get_game's
    `table`), so the turn does not read them again."""
    table = getattr(game, "table", None)
    return current(game, engine, at, vacations=table.vacations if table else None, seats=table.seats if table else None)


def state_at(game: Game, version: int | None = None) -> base.State | None:
    """The game's state after `version` (its latest by default): a use case's read of the log,
    through turns like its writes (the event store is entered from one place)."""
    return store.state_at(game, version)


def started_at(game: Game, version: int | None = None) -> base.State:
    """`state_at` of a version the game had started by (a move's, a rollback's target)."""
    return store.started(store.state_at(game, version))


class Turn:
    def __init__(
        self,
        game: Game,
        engine: base.Engine,
        state: base.State | None,
        at: datetime,
        *,
        vacations: clocks.Vacations | None = None,
        seed: str | None = None,
        seats: dict[int, tuple[int, str]] | None = None,
    ):
        self.game, self.engine, self.state, self.at = game, engine, state, at
        self.events: list[NewEvent] = []
        self.clocks = game.clocks or {}
        self.active = set(game.active_seats or [])
        if vacations is None:
            vacations = vacations_for(game) if self.clocks else {}
        self.vacations: clocks.Vacations = vacations
        self._seed = seed
        self.seats = seats  # seat -> (user id, username), for the notices; read when needed

    @property
    def seed(self) -> str:
        """The game's secret seed, read once per turn and only if an auto-move or the end needs it."""
        if self._seed is None:
            self._seed = seeds_of([self.game])[self.game.pk]
        return self._seed

    @property
    def next_seq(self) -> int:
        return self.game.version + len(self.events) + 1

    @property
    def over(self) -> bool:
        return self.state is not None and self.engine.is_over(self.state)

    @property
    def started(self) -> base.State:
        """The state a move, an auto-move or a forfeit changes: the game must have started."""
        return store.started(self.state)

    # -- changes ----------------------------------------------------------------------------
    def _moved(self, state: base.State, movers: set[int]) -> None:
        self.state = state
        after = set() if self.over else set(self.engine.active_players(state))
        self.clocks = clocks.advance(
            self.clocks, self.game.options, self.active, after, movers, self.at, self.vacations
        )
        self.active = after

    def roll_back(self, state: base.State, events: list[NewEvent]) -> None:
        """Staff voided moves: the game resumes from an earlier state, clocks restarting now."""
        self.events.extend(events)
        self._moved(state, set())

    def begin(self, state: base.State, event: NewEvent) -> None:
        """The game starts: the engine's first state, every clock set."""
        self.events.append(event)
        self.state = state
        self.active = set(self.engine.active_players(state))
        self.clocks = clocks.start(self.game.options, state["players"], self.active, self.at)

    def play(self, seat: int | None, move: Any, *, user_id=None, key=None, request_hash="", auto=False) -> base.Step:
        """Judge and apply one move (engine errors propagate; nothing is kept of a refused move)."""
        step = self.engine.play(self.started, seat, move, self.at)
        data = {"move": move, "record": step.record, **({"auto": True} if auto else {})}
        self.events.append(
            NewEvent(step.event_type, data, actor=seat, user_id=user_id, idempotency_key=key, request_hash=request_hash)
        )
        self._moved(step.state, {seat} if seat is not None else set())
        return step

    def auto_move(self, seat: int) -> None:
        """A legal move for the seat, chosen from the seed and the event number: reproducible
        (and replay needs no choosing: the event records the move made)."""
        move = self.engine.auto_move(self.started, seat, base.rng(self.seed, "auto", self.next_seq))
        self.play(seat, move, auto=True)

    def forfeit(self, seat: int, reason: str | None = None, *, actor: int | None = None, user_id=None) -> None:
        """The seat is out: by its clock (no reason), or `resigned` / `vanished` (games.community.social)."""
        data = {"seat": seat, **({"reason": reason} if reason else {})}
        self.events.append(NewEvent(store.SEAT_FORFEITED, data, actor=actor, user_id=user_id))
        self._moved(self.engine.forfeit(self.started, seat), set())

    # -- time -------------------------------------------------------------------------------
    def due_seats(self) -> dict[int, datetime]:
        out = set(self.engine.forfeited(self.state)) if self.state is not None else set()
        due = clocks.seat_deadlines(self.clocks, self.vacations, skip=out)
        return {seat: when for seat, when in due.items() if when <= self.at and seat in self.active}

    def settle(self) -> None:
        """Apply everything due by `at`: engine timers, seat timeouts, forfeited seats' turns."""
        for _ in range(MAX_SETTLE_STEPS):
            if self.state is None or self.over:
                return
            timer = next((d for d in self.engine.deadlines(self.state) if d.at <= self.at), None)
            if timer is not None:
                self.events.append(
                    NewEvent(
                        store.TIMER_EXPIRED, {"timer": timer.kind, "seat": timer.seat, "deadline": timer.at.isoformat()}
                    )
                )
                self.play(None, timer.move, auto=True)
                continue
            due = self.due_seats()
            if due:
                seat, when = min(due.items(), key=lambda item: (item[1], item[0]))
                policy = self.game.options.get("timeout_policy", "auto_move")
                self.events.append(
                    NewEvent(
                        store.TIMER_EXPIRED,
                        {"timer": "clock", "seat": seat, "deadline": when.isoformat(), "policy": policy},
                    )
                )
                if policy == "forfeit":
                    self.forfeit(seat)
                else:
                    self.auto_move(seat)
                continue
            waiting = sorted(set(self.engine.forfeited(self.state)) & self.active)
            if waiting:
                self.auto_move(waiting[0])
                continue
            return

    # -- commit -----------------------------------------------------------------------------
    def prepare(self, expected_version: int | None = None, **fields: Any) -> store.Append:
        """Everything this turn decided, as one append: the end of the game if it came, the
        clocks, the projection."""
        game, engine = self.game, self.engine
        expected = game.version if expected_version is None else expected_version
        self.active_before = set(game.active_seats or [])
        outcome = engine.outcome(self.state) if self.state is not None else None
        if outcome is not None and game.status != Game.Status.FINISHED:
            changes = self.rate(outcome)
            if changes is not None:
                # In the immutable log as in the projection (rebuild_projection reads it back).
                outcome = {**outcome, "rating_changes": changes}
            self.events.append(NewEvent(store.GAME_FINISHED, {"result": outcome, "seed": self.seed}))
            fields.update(status=Game.Status.FINISHED, result=outcome, finished_at=self.at)
            self.clocks = clocks.advance(self.clocks, game.options, self.active, set(), set(), self.at, self.vacations)
            self.active = set()
        fields.update(
            active_seats=sorted(self.active),
            clocks=self.clocks,
            **wake_times(game, engine, self.state, self.clocks, self.vacations, outcome),
        )
        return store.Append(game, expected, self.events, self.at, self.state, fields)

    def rate(self, outcome: dict[str, Any]) -> list[dict[str, Any]] | None:
        """The rating changes of a rated game finishing now (written in this transaction)."""
        from accounts import ratings

        if not self.game.rated or outcome.get("aborted"):
            return None
        users = (
            {seat: uid for seat, (uid, _) in self.seats.items()}
            if self.seats
            else dict(Seat.objects.filter(game=self.game).values_list("number", "user_id"))
        )
        return ratings.rate_finished(self.game, outcome, self.engine.teams(self.started), users, self.at)

    def commit(self, expected_version: int | None = None, also: list | None = None, **fields: Any) -> list[Event]:
        """One append for everything this turn decided, with the projection and notifications;
        `also` are other writes (bulk.Part) to make in the same statement."""
        append = self.prepare(expected_version, **fields)
        append.also = list(also or [])
        return commit_many([self], [append])[0]


def commit_many(turns: list[Turn], appends: list[store.Append] | None = None) -> list[list[Event]]:
    """Write several games' turns at once (each prepared): one append, one flush of the outbox,
    the wakes scheduled after commit."""
    appends = appends if appends is not None else [turn.prepare() for turn in turns]
    if not turns:
        return []
    news: list[tuple[str, str]] = []
    written = store.append_many(appends, news)
    # The notified users' streams are woken with the games' news and states: one Redis round
    # trip after commit for the whole write.
    outbox = notify.Outbox(announce=lambda users: news.extend(user_messages(users)))
    for turn, rows in zip(turns, written):
        notify.after_turn(turn.game, rows, turn.active_before, set(turn.active), turn.seats, outbox)
    outbox.flush()
    scheduling.schedule_wakes([turn.game for turn in turns])
    scheduling.tournament_games_finished(
        [turn.game for turn, append in zip(turns, appends) if append.projection.get("status") == Game.Status.FINISHED]
    )
    for turn in turns:  # a bot whose seat is active plays after commit (games/play/bots.py)
        bot_trigger.after_commit(turn.game, set(turn.active), turn.seats)
    return written


def wake_times(game: Game, engine: base.Engine, state, game_clocks, vacations, outcome) -> dict[str, Any]:
    """The Game columns the sweeper selects on: the next deadline and the next reminder."""
    if state is None or outcome is not None:
        return {"next_deadline": None, "next_reminder": None}
    out = engine.forfeited(state)
    times = [d.at for d in engine.deadlines(state)]
    times += clocks.seat_deadlines(game_clocks, vacations, skip=out).values()
    fraction = float(game.options.get("reminder_fraction", 0) or 0)
    reminders = clocks.reminder_times(game_clocks, fraction, vacations)
    return {"next_deadline": min(times, default=None), "next_reminder": min(reminders.values(), default=None)}


def refresh_deadlines_for_user(user) -> None:
    """A user's vacation changed: recompute the wake times of every active game they sit in."""
    from games.play.kinds import engine_of

    games = (
        Game.objects.select_for_update().filter(Q(seat_set__user=user), status=Game.Status.ACTIVE).exclude(clocks={})
    )
    for game in games:
        engine = engine_of(game)
        state = store.state_at(game)
        outcome = engine.outcome(state) if state is not None else None
        times = wake_times(game, engine, state, game.clocks, vacations_for(game), outcome)
        Game.objects.filter(pk=game.pk).update(**times)
        game.__dict__.update(times)
        scheduling.schedule_wake(game)
