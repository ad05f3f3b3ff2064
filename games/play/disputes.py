"""Disputes: a player disputes an event; staff note, assign and decide it, upholding it with or
without rolling the game back. Each public function is one transaction, and each staff action
checks its permission itself: the admin is only one way in."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.errors import DISPUTE_STATUS, worded
from games.errors import Forbidden, Invalid, NotFound, TooManyDisputes
from games.models import Dispute, Event, Game, Seat
from games.notifications import notify
from games.play import access, selectors, store, turns
from games.play.kinds import engine_of
from games.play.store import NewEvent
from games.play.turns import Turn


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
