"""Notifications: decided in the transaction of the events that cause them (an outbox).

Each notification lands in the user's inbox and, per their preferences, gets a Delivery row per
other channel (email, each webhook). Deliveries go out after commit (games.play.scheduling); the
sweeper retries any left pending, so a crash after commit loses nothing, and a rolled-back move,
whose rows vanish with it, notifies nobody. Unread turn notices for one game collapse into one,
and email is batched into digests, so a busy game does not mean dozens of pushes a day.

A write collects its notices in an `Outbox` and flushes them once: two statements however many
players, or games, it notifies (one read of the recipients' preferences, mutes, webhooks and
unread turn notices; one insert of the notifications, the digest-slot upsert and the deliveries),
a third when unread turn notices collapse.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, router, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from config import jsoncodec
from config.metrics import DELIVERIES
from games.play import bulk, scheduling, store
from games.realtime import news
from games.models import Delivery, Game, Notification, Seat

NOTIFICATION_COLUMNS = [
    "user",
    "game",
    "type",
    "title",
    "data",
    "seq",
    "created_at",
    "updated_at",
    "read_at",
    "collapsed",
]

# Each written in its recipient's language (`Said`, `_compose`). The game's title is its name as
# published, in every language.
TITLES = {
    "your_turn": gettext_noop("Your turn in %(title)s"),
    "reminder": gettext_noop("Time is running out in %(title)s"),
    "timed_out": gettext_noop("%(who)s ran out of time in %(title)s"),
    "dispute": gettext_noop("%(what)s in %(title)s"),
    "finished": gettext_noop("%(title)s is over"),
    "chat": gettext_noop("%(who)s wrote in %(title)s"),
    "invitation": gettext_noop("%(who)s invites you to %(title)s"),
    "abort_vote": gettext_noop("%(who)s asks to abort %(title)s"),
    "joined": gettext_noop("%(who)s joined your game of %(title)s"),
    "tournament": gettext_noop("%(what)s"),
    "ladder": gettext_noop(
        "%(what)s"
    ),  # challenged, and how a challenge ended (games.community.ladders)  # registered, a round's game, a bye, the end (games.community.tournament_rounds)
}
# Unread notices of these types collapse into one per user and game (with a `collapsed` count).
COLLAPSING = ("your_turn", "chat")
# Notices whose title begins with a user's name ("%(who)s ..."): renamed when that user is deleted.
# Their translations begin with the name too (tests/i18n holds the catalogs to it).
NAMING = tuple(kind for kind, title in TITLES.items() if title.startswith("%(who)s "))


class Said:
    """A sentence for a notice, rendered in each recipient's language as it is written for them
    (a title's argument, or a value of its data): `template` is the English message id."""

    def __init__(self, template: str, **args: Any) -> None:
        self.template, self.args = template, args

    def __str__(self) -> str:
        return gettext(self.template) % {name: str(value) for name, value in self.args.items()}


def in_language(language: str):
    """The recipient's language around what is written for them: their choice, else the site's."""
    return translation.override(language or settings.LANGUAGE_CODE)


def _rendered(value: Any) -> Any:
    return str(value) if isinstance(value, Said) else value


def forget_name(user) -> None:
    """A deleted account reads deleted-N everywhere (docs/accounts.md): the other players' notices
    of its games that begin with its name ("alice wrote in ...") begin with deleted-N instead.
    Registered as personal data (games.apps): it runs while the account still has its name."""
    from django.db.models import Value
    from django.db.models.functions import Concat, Substr

    from accounts.services import DELETED_PREFIX

    old = f"{user.username} "  # usernames hold no space: the prefix is the name and nothing else
    Notification.objects.filter(
        type__in=NAMING, title__startswith=old, game__in=Seat.objects.filter(user=user).values("game_id")
    ).exclude(user=user).update(title=Concat(Value(f"{DELETED_PREFIX}{user.pk} "), Substr("title", len(old) + 1)))


def _seats(game: Game) -> dict[int, int]:
    return dict(Seat.objects.filter(game=game).values_list("number", "user_id"))


def seats_with_names(game: Game) -> dict[int, tuple[int, str]]:
    """seat -> (user id, username): what after_turn needs, in one query."""
    return {
        number: (user_id, name)
        for number, user_id, name in Seat.objects.filter(game_id=game.pk).values_list(
            "number", "user_id", "user__username"
        )
    }


def _title(game: Game) -> str:
    from games.play.kinds import get_engine

    return get_engine(game.kind).title


def _titles(games: Iterable[Game | None]) -> dict[str, str]:
    """kind -> the game's title: looked up once per kind, not once per notice of a batch."""
    return {kind: _title(game) for kind, game in {g.kind: g for g in games if g is not None}.items()}


@dataclass
class _Notice:
    user_ids: list[int]
    game: Game | None
    kind: str
    data: dict[str, Any]
    seq: int | None
    title_args: dict[str, Any] = field(default_factory=dict)


class Outbox:
    """Notices decided by one write, written together by `flush` (in the current transaction)."""

    def __init__(self, announce: Callable[[Iterable[int]], None] | None = None) -> None:
        self.notices: list[_Notice] = []
        # How the notified users' own streams are woken after commit: by default a publish of its
        # own; a move hands its write's pipeline instead (games.play.turns.commit_many).
        self.announce = announce or news.announce_users

    def add(
        self,
        user_ids: Iterable[int],
        game: Game | None,
        kind: str,
        data: dict[str, Any],
        seq: int | None = None,
        **title_args: Any,
    ) -> None:
        users = list(user_ids)
        if users:
            self.notices.append(_Notice(users, game, kind, data, seq, title_args))

    def flush(self) -> list[Notification]:
        """Write the notices added so far, in the current transaction: for each user who has not
        muted the game, a new notification (or a fresh one collapsed into their unread one) and
        its deliveries by the channels they chose. Two statements at most: one read of the
        recipients, one write (and an UPDATE when notices collapse)."""
        notices, self.notices = self.notices, []
        if not notices:
            return []
        now = timezone.now()
        found = _recipients_of(notices, now)
        wanted = [
            (user_id, n)
            for n in notices
            for user_id in sorted(set(n.user_ids))
            if n.game is None or n.game.pk not in found[user_id].muted
        ]
        if not wanted:
            return []
        self.announce({user_id for user_id, _ in wanted})  # their own streams, after commit
        fresh, collapsed = _compose(wanted, found, now)
        if collapsed:
            bulk.update(Notification, ["collapsed", "updated_at", "data", "seq", "read_at"], collapsed)
        if not fresh:
            return []
        notes = [note for note, _ in fresh]
        ids, outgoing = _insert_notifications(notes, _deliveries(fresh, found, now), now)
        scheduling.deliver_after_commit(outgoing)
        return [_saved(note, pk) for note, pk in zip(notes, ids)]


def _recipients_of(notices: list[_Notice], now: datetime) -> dict[int, _Recipient]:
    collapsing = [n for n in notices if n.kind in COLLAPSING]
    return _recipients(
        {user_id for n in notices for user_id in n.user_ids},
        {n.game.pk for n in notices if n.game is not None},
        {n.game.pk for n in collapsing if n.game is not None},
        {user_id for n in collapsing for user_id in n.user_ids},
        now,
    )


def _channels(recipient: _Recipient, kind: str) -> list[str]:
    """NotificationPreference.channels_for without a model instance per notice (building one was
    a quarter of the sweeper's time at a thousand expiring games)."""
    from accounts.models import NotificationPreference

    return list(recipient.channels.get(kind, NotificationPreference.DEFAULT_CHANNELS[kind]))


def _compose(
    wanted: list[tuple[int, _Notice]], found: dict[int, _Recipient], now: datetime
) -> tuple[list[tuple[Notification, list[str]]], list[Notification]]:
    """The notifications to insert, each with the channels its user chose, and the unread ones to
    update instead.

    Unread turn (and chat) notices collapse: one per user, game and type, kept fresh, and no new
    push. A turn notice read (by a move) within TURN_NOTICE_REOPEN_SECONDS is opened again rather
    than a new one written: in a real-time game the turn comes back every few seconds, and each
    would otherwise be a row and a push of its own."""
    unread: dict[tuple[int, Any, str], Notification] = {
        (user_id, game_id, kind): Notification(pk=pk, user_id=user_id, game_id=game_id, type=kind, collapsed=count)
        for user_id in {user_id for user_id, _ in wanted}
        for pk, game_id, count, kind in found[user_id].unread
    }
    collapsed: dict[int, Notification] = {}
    titles = _titles(n.game for _, n in wanted)
    fresh: list[tuple[Notification, list[str]]] = []
    for user_id, notice in wanted:
        game_id = notice.game.pk if notice.game else None
        recipient = found[user_id]
        with in_language(recipient.language):
            payload = {
                **{key: _rendered(value) for key, value in notice.data.items()},
                **({"game": str(game_id), "kind": notice.game.kind} if notice.game else {}),
            }
            title = gettext(TITLES[notice.kind]) % {
                "title": titles[notice.game.kind] if notice.game else "",
                **{name: _rendered(value) for name, value in notice.title_args.items()},
            }
        chosen = _channels(recipient, notice.kind)
        kept = unread.get((user_id, game_id, notice.kind)) if notice.kind in COLLAPSING else None
        if kept is not None:
            kept.collapsed += 1
            kept.updated_at, kept.data, kept.seq, kept.read_at = now, payload, notice.seq, None
            if kept.pk is not None:
                collapsed[kept.pk] = kept
            continue
        note = Notification(
            user_id=user_id,
            game_id=game_id,
            type=notice.kind,
            title=title,
            data=payload,
            seq=notice.seq,
            created_at=now,
            updated_at=now,
            read_at=None if "inbox" in chosen else now,
        )
        fresh.append((note, chosen))
        if notice.kind in COLLAPSING and note.read_at is None:
            unread[(user_id, game_id, notice.kind)] = note  # the next such notice collapses into it
    return fresh, list(collapsed.values())


def _deliveries(
    fresh: list[tuple[Notification, list[str]]], found: dict[int, _Recipient], now: datetime
) -> list[tuple]:
    """What to send of each new notification: (its index in `fresh`, user id, channel, webhook id,
    time). An email's time is None: it goes at its user's digest slot."""
    deliveries = []
    for index, (note, chosen) in enumerate(fresh):
        if "email" in chosen:
            deliveries.append((index, note.user_id, "email", None, None))
        if "webhook" in chosen:
            deliveries += [(index, note.user_id, "webhook", hook_id, now) for hook_id in found[note.user_id].hooks]
        if "push" in chosen and found[note.user_id].push:
            # One delivery per notice, to every browser and device of the user (the task reads
            # them when it sends; quiet hours are the task's too).
            deliveries.append((index, note.user_id, "push", None, now))
    return deliveries


def _saved(note: Notification, pk: int) -> Notification:
    """The notification as Django would have loaded it once inserted (`Model.from_db`)."""
    fields = Notification._meta.concrete_fields
    return Notification.from_db(
        router.db_for_write(Notification),
        [f.attname for f in fields],
        [pk if f.primary_key else getattr(note, f.attname) for f in fields],
    )


@dataclass
class _Recipient:
    channels: dict[str, Any] = field(default_factory=dict)
    muted: set = field(default_factory=set)
    hooks: list[int] = field(default_factory=list)
    push: bool = False  # a browser or device registered for push
    unread: list[tuple[int, Any, int, str]] = field(default_factory=list)  # (id, game id, collapsed, type)
    language: str = ""  # the account's choice ("": the site's default)


def _recipients(
    user_ids: set[int], game_ids: set, turn_games: set, turn_users: set, now: datetime
) -> dict[int, _Recipient]:
    """Everything the outbox reads about the users it may notify, in one statement: their channel
    preferences, which of these games they muted, their active webhooks, whether they have a
    push target, and their unread turn and chat notices of these games, with turn notices read
    within TURN_NOTICE_REOPEN_SECONDS (locked: two writes collapsing into the same notice take turns)."""
    sql = """
        WITH unread AS (
            SELECT id, user_id, game_id, collapsed, type, read_at FROM games_notification
             WHERE type = ANY(%s::text[])
               AND (read_at IS NULL OR (type = 'your_turn' AND read_at > %s AND read_at > created_at))
               AND game_id = ANY(%s::uuid[]) AND user_id = ANY(%s::bigint[])
             ORDER BY id FOR UPDATE)
        SELECT u.id, p.channels,
               ARRAY(SELECT m.game_id::text FROM games_mute m
                      WHERE m.user_id = u.id AND m.game_id = ANY(%s::uuid[])),
               ARRAY(SELECT w.id FROM accounts_webhook w WHERE w.user_id = u.id AND w.active ORDER BY w.id),
               EXISTS(SELECT 1 FROM accounts_pushsubscription s WHERE s.user_id = u.id)
                 OR EXISTS(SELECT 1 FROM accounts_pushdevice d WHERE d.user_id = u.id),
               (SELECT json_agg(json_build_array(n.id, n.game_id, n.collapsed, n.type)
                                ORDER BY n.read_at IS NULL DESC,
                                         CASE WHEN n.read_at IS NULL THEN n.id ELSE -n.id END)
                  FROM unread n WHERE n.user_id = u.id),
               (SELECT a.language FROM accounts_user a WHERE a.id = u.id)
          FROM unnest(%s::bigint[]) AS u(id)
          LEFT JOIN accounts_notificationpreference p ON p.user_id = u.id"""
    games = sorted(str(g) for g in game_ids)
    out: dict[int, _Recipient] = {}
    reopen_after = now - timedelta(seconds=settings.TURN_NOTICE_REOPEN_SECONDS)
    with connection.cursor() as cursor:
        cursor.execute(
            sql,
            [
                list(COLLAPSING),
                reopen_after,
                sorted(str(g) for g in turn_games),
                sorted(turn_users),
                games,
                sorted(user_ids),
            ],
        )
        rows = cursor.fetchall()
    for user_id, channels, muted, hooks, push, unread, language in rows:
        # A user's oldest unread notice per game and type (else the latest turn notice read
        # recently, and read by the user: one kept out of the inbox was read when written) is the
        # one kept fresh (the rest stay as they are).
        first: dict[Any, tuple] = {}
        for pk, game_id, count, kind in unread or []:
            first.setdefault((uuid.UUID(game_id), kind), (pk, uuid.UUID(game_id), count, kind))
        if isinstance(channels, str):  # Django has psycopg hand jsonb over as text
            channels = json.loads(channels)
        out[user_id] = _Recipient(
            channels or {},
            {uuid.UUID(g) for g in muted or []},
            list(hooks or []),
            bool(push),
            list(first.values()),
            language or "",
        )
    return out


def _insert_notifications(
    notes: list[Notification], deliveries: list[tuple], now: datetime
) -> tuple[list[int], list[scheduling.Outgoing]]:
    """Insert the notifications, take a digest slot for each user an email goes to and insert the
    deliveries, in one statement. `deliveries` are (index of the notice in `notes`, user id, channel, webhook
    id, time: None for an email, which goes at its user's slot). Returns the notices' new ids (in
    `notes`' order) and what the worker needs to schedule each delivery."""
    columns, document = bulk.records(
        Notification,
        NOTIFICATION_COLUMNS,
        [
            [
                note.user_id,
                note.game_id,
                note.type,
                note.title,
                note.data,
                note.seq,
                note.created_at,
                note.updated_at,
                note.read_at,
                note.collapsed,
            ]
            for note in notes
        ],
    )
    shape = ", ".join(f"c{i} {cast}" for i, (_, cast) in enumerate(columns))
    names = ", ".join(f'"{column}"' for column, _ in columns)
    slots_sql, slot_params = digest_slots_sql(
        {user_id for _, user_id, channel, _, _ in deliveries if channel == "email"}, now
    )
    wanted = jsoncodec.dumps(
        [
            {"o": o, "i": i, "u": user_id, "ch": channel, "hook": hook, "at": at}
            for o, (i, user_id, channel, hook, at) in enumerate(deliveries)
        ],
        default=bulk.plain,
    ).decode()
    aliases = ", ".join(f"c{i}" for i in range(len(columns)))
    # Each notice is given its id before it is inserted (`ids`: its position in `notes`, from 1,
    # and a value of the table's sequence), so the deliveries and the answer find a notice's id
    # by its position, whatever order the rows are inserted in.
    sql = f"""
        WITH {slots_sql},
             ids AS MATERIALIZED (
                 SELECT n AS i, nextval(pg_get_serial_sequence('games_notification', 'id')) AS id
                   FROM generate_series(1, %s) AS n),
             notes AS (INSERT INTO games_notification ("id", {names})
                       SELECT ids.id, {aliases}
                         FROM ROWS FROM (json_to_recordset(%s::json) AS ({shape})) WITH ORDINALITY
                              AS v({aliases}, i)
                         JOIN ids USING (i)
                       RETURNING id),
             sent AS (INSERT INTO games_delivery ("notification_id", "channel", "webhook_id", "status",
                                                  "attempts", "next_attempt_at", "last_error", "created_at")
                      SELECT n.id, d.ch, d.hook, %s, 0, COALESCE(d.at, s.email_digest_at), '', %s
                        FROM json_to_recordset(%s::json) AS d(o bigint, i bigint, u bigint, ch varchar,
                                                              hook bigint, at timestamptz)
                        JOIN ids n ON n.i = d.i + 1
                        LEFT JOIN slots s ON d.at IS NULL AND s.user_id = d.u
                       ORDER BY d.o
                      RETURNING id, notification_id, channel, next_attempt_at)
        SELECT (SELECT array_agg(id ORDER BY i) FROM ids),
               (SELECT json_agg(json_build_array(id, notification_id, channel, next_attempt_at) ORDER BY id)
                  FROM sent)"""
    with connection.cursor() as cursor:
        cursor.execute(sql, [*slot_params, len(notes), document, Delivery.Status.PENDING, now, wanted])
        ((ids, sent),) = cursor.fetchall()
    ids = list(ids)
    user_of = {pk: note.user_id for note, pk in zip(notes, ids)}
    outgoing = [
        scheduling.Outgoing(pk, channel, user_of[note_id], 0, datetime.fromisoformat(at))
        for pk, note_id, channel, at in sent or []
    ]
    return ids, outgoing


def digest_slots_sql(user_ids: set[int], now: datetime) -> tuple[str, list]:
    """A `slots` CTE: each user's email digest to join, the open one or one opened now for their
    digest period. One upsert for all of them (the row lock also orders two writes racing for
    the same user)."""
    from accounts.models import NotificationPreference

    table = NotificationPreference._meta.db_table
    default_minutes = NotificationPreference._meta.get_field("email_digest_minutes").default
    return (
        f"""slots AS (
            INSERT INTO {table} AS p (user_id, channels, email_digest_minutes, email_digest_at)
            SELECT u, '{{}}'::jsonb, %s, %s + make_interval(mins => %s)
              FROM unnest(%s::bigint[]) AS u ORDER BY u
            ON CONFLICT (user_id) DO UPDATE SET email_digest_at = CASE
                WHEN p.email_digest_at > %s THEN p.email_digest_at
                ELSE %s + make_interval(mins => p.email_digest_minutes) END
            RETURNING user_id, email_digest_at)""",
        [default_minutes, now, default_minutes, sorted(user_ids), now, now],
    )


def send(
    user_ids: Iterable[int],
    game: Game | None,
    kind: str,
    data: dict[str, Any],
    seq: int | None = None,
    **title_args: Any,
) -> list[Notification]:
    """Notify users (muted ones excepted) in the current transaction."""
    outbox = Outbox()
    outbox.add(user_ids, game, kind, data, seq, **title_args)
    return outbox.flush()


# ---------------------------------------------------------------------------------------------
# What the game's events mean to people
# ---------------------------------------------------------------------------------------------
def after_turn(
    game: Game,
    rows,
    active_before: set[int],
    active_after: set[int],
    seats: dict[int, tuple[int, str]] | None = None,
    outbox: Outbox | None = None,
) -> None:
    """The notices one write's events call for. With an `outbox`, they are added to it (the
    caller flushes, maybe for many games at once); without, they are written now."""
    if outbox is None:
        outbox = Outbox()
        after_turn(game, rows, active_before, active_after, seats, outbox)
        outbox.flush()
        return
    requester = next((r.user_id for r in rows if r.user_id), None)  # who made this write, if anyone
    newly = active_after - active_before if game.status == Game.Status.ACTIVE else set()
    tells = any(
        r.type == store.GAME_FINISHED or (r.type == store.TIMER_EXPIRED and r.data.get("seat") is not None)
        for r in rows
    )
    if not tells and not newly:
        return  # nobody to tell: not even the seats are read
    seats = seats if seats is not None else seats_with_names(game)
    everyone = [user_id for user_id, _ in seats.values()]
    last = rows[-1].seq if rows else None
    for row in rows:
        if row.type == store.TIMER_EXPIRED and row.data.get("seat") is not None:
            seat = row.data["seat"]
            who = seats[seat][1] if seat in seats else Said(gettext_noop("seat %(seat)s"), seat=seat)
            outbox.add(
                everyone,
                game,
                "timed_out",
                {"seat": seat, "policy": row.data.get("policy"), "deadline": row.data["deadline"]},
                seq=row.seq,
                who=who,
            )
        elif row.type == store.GAME_FINISHED:
            outbox.add(everyone, game, "finished", {"result": row.data["result"]}, seq=row.seq)
    to_tell = [seats[s][0] for s in sorted(newly) if s in seats and seats[s][0] != requester]
    outbox.add(to_tell, game, "your_turn", {"version": game.version}, seq=last)


def remind(game: Game, deadlines: dict[int, datetime]) -> None:
    seats = _seats(game)
    outbox = Outbox()
    for seat, deadline in deadlines.items():
        if seat in seats:
            outbox.add([seats[seat]], game, "reminder", {"seat": seat, "deadline": deadline.isoformat()})
    outbox.flush()


def dispute_changed(game: Game, dispute, opened: bool = False) -> None:
    """Opening tells the other players; a decision tells everyone its outcome in words, with staff's
    message (the one who raised it reads "Your dispute ...")."""
    seats = _seats(game)
    data = {"dispute": dispute.pk, "seq": dispute.seq, "status": dispute.status}
    if opened:
        others = [u for u in seats.values() if u != dispute.raised_by_id]
        send(
            others,
            game,
            "dispute",
            {**data, "outcome": Said(gettext_noop("A dispute was raised on event %(seq)s."), seq=dispute.seq)},
            what=Said(gettext_noop("A dispute was raised")),
        )
        return
    outbox = Outbox()
    rolled_back = dispute.rolled_back_to is not None
    for mine in (True, False):
        users = [u for u in seats.values() if (u == dispute.raised_by_id) == mine]
        # Whole sentences for each case, so that each language words them its own way.
        outcome, what = DISPUTE_WORDS[(mine, dispute.status, rolled_back)]
        outbox.add(
            users,
            game,
            "dispute",
            {
                **data,
                "outcome": Said(outcome, seq=dispute.seq),
                "resolution": dispute.resolution,
                "rolled_back_to": dispute.rolled_back_to,
            },
            what=Said(what),
        )
    outbox.flush()


# (the reader raised it, the decision, rolled back) -> (the notice's outcome, its title's start)
DISPUTE_WORDS = {
    (True, "upheld", False): (
        gettext_noop("Your dispute on event %(seq)s was upheld."),
        gettext_noop("Your dispute was upheld"),
    ),
    (True, "upheld", True): (
        gettext_noop("Your dispute on event %(seq)s was upheld; the game was rolled back to before move %(seq)s."),
        gettext_noop("Your dispute was upheld"),
    ),
    (True, "dismissed", False): (
        gettext_noop("Your dispute on event %(seq)s was dismissed."),
        gettext_noop("Your dispute was dismissed"),
    ),
    (False, "upheld", False): (
        gettext_noop("A dispute on event %(seq)s was upheld."),
        gettext_noop("A dispute was upheld"),
    ),
    (False, "upheld", True): (
        gettext_noop("A dispute on event %(seq)s was upheld; the game was rolled back to before move %(seq)s."),
        gettext_noop("A dispute was upheld"),
    ),
    (False, "dismissed", False): (
        gettext_noop("A dispute on event %(seq)s was dismissed."),
        gettext_noop("A dispute was dismissed"),
    ),
}


def mark_turn_notices_read(game: Game, user) -> None:
    """Acting in a game reads its turn notice: the user has evidently seen it."""
    with connection.cursor() as cursor:
        cursor.execute(*turn_notices_read(game, user))


def turn_notices_read(game: Game, user) -> bulk.Part:
    """`mark_turn_notices_read` as a write to make with others (a move's, in one statement)."""
    sql = (
        'UPDATE "games_notification" SET read_at = %s WHERE user_id = %s AND game_id = %s '
        "AND type = 'your_turn' AND read_at IS NULL"
    )
    return sql, [timezone.now(), user.pk, game.pk]


def attempt_saved(sender, instance, created, **kwargs) -> None:
    """A delivery attempt counts in the metrics once its transaction commits (connected by
    GamesConfig.ready to DeliveryAttempt's post_save)."""
    if created:
        channel = instance.delivery.channel
        outcome = "ok" if instance.ok else "error"
        transaction.on_commit(lambda: DELIVERIES.labels(channel, outcome).inc())
