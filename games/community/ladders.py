"""Ladders: the use cases (docs/tournaments.md, "Ladder"). One ladder per 2-player kind, made when
its first player joins: a standing ranking in which a player challenges anyone up to `reach`
places above. The defender accepts (a game with the ladder's clock starts at once) or declines; a
challenge declined or left unanswered for `answer_seconds` goes to the challenger. A challenger
who wins takes the defender's place, the defender and everyone between moving down one; otherwise
nothing moves. Each public function is one transaction under the ladder's row lock.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from games.errors import AlreadyJoined, Forbidden, Invalid, NotFound, TournamentClosed
from games.models import Challenge, Game, Ladder, Rung
from games.notifications import notify
from games.play import lobby, options as game_options
from games.play.kinds import all_kinds, get_engine

OPEN = (Challenge.Status.PENDING, Challenge.Status.PLAYING)


def _engine(kind):
    if not isinstance(kind, str) or kind not in all_kinds():
        raise NotFound(gettext("no such ladder"))
    engine = get_engine(kind)
    if engine.min_players > 2:
        raise NotFound(gettext("%(title)s is not a 2-player game: it has no ladder") % {"title": engine.title})
    return engine


def _defaults(engine) -> dict:
    return {
        "options": game_options.validate(engine, {}),
        "reach": settings.LADDER_REACH,
        "answer_seconds": settings.LADDER_ANSWER_SECONDS,
    }


def read(kind) -> Ladder:
    """The kind's ladder to read: an empty one with the site's defaults (unsaved) if nobody has
    joined it yet."""
    engine = _engine(kind)
    return Ladder.objects.filter(kind=kind).first() or Ladder(kind=kind, **_defaults(engine))


def get(kind, lock: bool = False) -> Ladder:
    """The kind's ladder, made with the site's defaults if it has none yet."""
    engine = _engine(kind)
    ladder, _ = Ladder.objects.get_or_create(kind=kind, defaults=_defaults(engine))
    if lock:
        ladder = Ladder.objects.select_for_update().get(pk=ladder.pk)
    return ladder


def rungs(ladder: Ladder) -> list[Rung]:
    if ladder.pk is None:
        return []
    return list(Rung.objects.filter(ladder=ladder).select_related("user").order_by("position"))


def open_challenges(ladder: Ladder) -> list[Challenge]:
    if ladder.pk is None:
        return []
    return list(
        Challenge.objects.filter(ladder=ladder, status__in=OPEN)
        .select_related("challenger", "defender")
        .order_by("created_at")
    )


def _notice(users, ladder: Ladder, event: str, what: notify.Said, game: Game | None = None, **data) -> None:
    notify.send(list(users), game, "ladder", {"ladder": ladder.kind, "event": event, **data}, what=what)


@transaction.atomic
def join(kind, user) -> Rung:
    """Take the bottom place."""
    ladder = get(kind, lock=True)
    if user.is_bot:
        raise Forbidden(gettext("bots do not climb ladders"))
    if Rung.objects.filter(ladder=ladder, user=user).exists():
        raise AlreadyJoined(gettext("you are on this ladder already"))
    last = Rung.objects.filter(ladder=ladder).order_by("-position").values_list("position", flat=True).first() or 0
    return Rung.objects.create(ladder=ladder, user=user, position=last + 1)


@transaction.atomic
def leave(kind, user) -> None:
    """Step off: the players below move up one. Not while a challenge of yours is open."""
    ladder = get(kind, lock=True)
    mine = Rung.objects.filter(ladder=ladder, user=user).first()
    if mine is None:
        raise NotFound(gettext("you are not on this ladder"))
    if Challenge.objects.filter(ladder=ladder, status__in=OPEN).filter(either(user)).exists():
        raise TournamentClosed(gettext("finish your open challenge first"))
    mine.delete()
    Rung.objects.filter(ladder=ladder, position__gt=mine.position).update(position=F("position") - 1)


def either(user) -> Q:
    return Q(challenger=user) | Q(defender=user)


@transaction.atomic
def challenge(kind, user, defender_name) -> Challenge:
    """Challenge a player up to `reach` places above you; neither of you may have another
    challenge open."""
    ladder = get(kind, lock=True)
    if not isinstance(defender_name, str):
        raise Invalid(gettext("defender must be a username"))
    mine = Rung.objects.filter(ladder=ladder, user=user).first()
    if mine is None:
        raise Forbidden(gettext("join the ladder first"))
    theirs = Rung.objects.filter(ladder=ladder, user__username__iexact=defender_name).select_related("user").first()
    if theirs is None:
        raise NotFound(gettext("no such player on this ladder"))
    if not mine.position - ladder.reach <= theirs.position < mine.position:
        raise Invalid(
            gettext("you may challenge only the %(reach)s places above yours (you are at %(position)s)")
            % {"reach": ladder.reach, "position": mine.position}
        )
    if Challenge.objects.filter(ladder=ladder, status__in=OPEN).filter(either(user) | either(theirs.user)).exists():
        raise TournamentClosed(gettext("you or they have a challenge open already"))
    now = timezone.now()
    made = Challenge.objects.create(
        ladder=ladder,
        challenger=user,
        defender=theirs.user,
        created_at=now,
        expires_at=now + timedelta(seconds=ladder.answer_seconds),
    )
    _notice(
        [theirs.user_id],
        ladder,
        "challenged",
        notify.Said(
            gettext_noop("You are challenged by %(who)s on the %(title)s ladder"),
            who=user.username,
            title=get_engine(kind).title,
        ),
        challenge=made.pk,
    )
    return made


def _challenge(challenge_id, user) -> tuple[Ladder, Challenge]:
    if type(challenge_id) is not int:
        raise NotFound(gettext("no such challenge"))
    found = Challenge.objects.filter(pk=challenge_id).values_list("ladder_id", flat=True).first()
    if found is None:
        raise NotFound(gettext("no such challenge"))
    ladder = Ladder.objects.select_for_update().get(pk=found)
    made = Challenge.objects.select_related("challenger", "defender").get(pk=challenge_id)
    if user.pk not in (made.challenger_id, made.defender_id):
        raise NotFound(gettext("no such challenge"))
    return ladder, made


@transaction.atomic
def accept(challenge_id, user) -> Challenge:
    """The defender accepts: the game starts at once, the challenger at the first seat."""
    ladder, made = _challenge(challenge_id, user)
    if made.defender_id != user.pk:
        raise Forbidden(gettext("only the player challenged answers"))
    if made.status != Challenge.Status.PENDING or made.expires_at <= timezone.now():
        raise TournamentClosed(gettext("the challenge is answered or expired already"))
    made.game = lobby.create_table(
        made.challenger, ladder.kind, ladder.options, [made.challenger, made.defender], True, {"ladder": ladder.kind}
    )
    made.status = Challenge.Status.PLAYING
    made.save(update_fields=["game", "status"])
    return made


@transaction.atomic
def decline(challenge_id, user) -> Challenge:
    """The defender declines: as an unanswered challenge, it goes to the challenger."""
    ladder, made = _challenge(challenge_id, user)
    if made.defender_id != user.pk:
        raise Forbidden(gettext("only the player challenged answers"))
    if made.status != Challenge.Status.PENDING:
        raise TournamentClosed(gettext("the challenge is answered already"))
    _settle(ladder, made, Challenge.Status.DECLINED)
    return made


def _settle(ladder: Ladder, made: Challenge, status: str) -> None:
    """Record the outcome; a challenger's win (or a refusal) takes the defender's place."""
    made.status, made.settled_at = status, timezone.now()
    made.save(update_fields=["status", "settled_at"])
    if status in (Challenge.Status.WON, Challenge.Status.DECLINED):
        above = Rung.objects.get(ladder=ladder, user_id=made.defender_id).position
        below = Rung.objects.get(ladder=ladder, user_id=made.challenger_id).position
        if above < below:
            Rung.objects.filter(ladder=ladder, position__gte=above, position__lt=below).update(
                position=F("position") + 1
            )
            Rung.objects.filter(ladder=ladder, user_id=made.challenger_id).update(position=above)
    title = get_engine(ladder.kind).title
    words = {
        Challenge.Status.WON: gettext_noop("The challenge on the %(title)s ladder: %(who)s won and climbed"),
        Challenge.Status.LOST: gettext_noop("The challenge on the %(title)s ladder: %(who)s did not win"),
        Challenge.Status.DECLINED: gettext_noop("The challenge on the %(title)s ladder went unplayed to %(who)s"),
    }
    _notice(
        [made.challenger_id, made.defender_id],
        ladder,
        status,
        notify.Said(words[status], title=title, who=made.challenger.username),
        challenge=made.pk,
    )


@transaction.atomic
def games_finished(game_ids: list[str]) -> int:
    """The worker's part when ladder games end: a challenger who placed first alone won."""
    settled = 0
    for made in Challenge.objects.filter(game_id__in=game_ids, status=Challenge.Status.PLAYING).select_related(
        "game", "challenger", "defender"
    ):
        ladder = Ladder.objects.select_for_update().get(pk=made.ladder_id)
        made = Challenge.objects.select_related("game", "challenger", "defender").get(pk=made.pk)
        if made.status != Challenge.Status.PLAYING or made.game.status == Game.Status.ACTIVE:
            continue
        places = (made.game.result or {}).get("places") or []
        # The challenger sits at seat 0: they climb only by winning outright (a draw keeps the order).
        won = len(places) == 2 and places[0] == 1 and places[1] == 2
        _settle(ladder, made, Challenge.Status.WON if won else Challenge.Status.LOST)
        settled += 1
    return settled


def due(now: datetime | None = None) -> int:
    """Beat's part: unanswered challenges past their time go to the challenger; a finished game
    whose message was lost is settled."""
    now = now or timezone.now()
    done = 0
    for pk in list(
        Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__lte=now).values_list("pk", flat=True)[
            :100
        ]
    ):
        with transaction.atomic():
            made = Challenge.objects.filter(pk=pk).select_related("challenger", "defender").first()
            ladder = Ladder.objects.select_for_update().get(pk=made.ladder_id)
            made.refresh_from_db()
            if made.status == Challenge.Status.PENDING and made.expires_at <= now:
                _settle(ladder, made, Challenge.Status.DECLINED)
                done += 1
    ended = list(
        Challenge.objects.filter(status=Challenge.Status.PLAYING)
        .exclude(game__status=Game.Status.ACTIVE)
        .values_list("game_id", flat=True)[:100]
    )
    if ended:
        done += games_finished([str(g) for g in ended])
    return done
