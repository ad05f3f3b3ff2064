"""Vacations: a player's clocks stop in every game for the days they take (docs/accounts.md).

The allowance and the Vacation rows are accounts'; the clocks are the games'. These use cases touch
both, so they sit here, above both: accounts imports nothing of games.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User, Vacation
from accounts.services import vacation_days_used
from games.errors import Invalid, NotFound
from games.play.turns import refresh_deadlines_for_user


@transaction.atomic
def start_vacation(user, days: float):
    """Stop the user's clocks in every game for `days`, from now, within the yearly allowance."""
    User.objects.select_for_update().get(pk=user.pk)  # one vacation change at a time per user
    now = timezone.now()
    if Vacation.objects.filter(user=user, start__lte=now, end__gt=now).exists():
        raise Invalid(gettext("you are on vacation already; end it before starting another"))
    left = settings.VACATION_DAYS_PER_YEAR - vacation_days_used(user, now.year)
    if not 0 < days <= left:
        raise Invalid(
            gettext("you have %(left).2f vacation days left this year; ask for more than 0 and at most that")
            % {"left": left}
        )
    vacation = Vacation.objects.create(user=user, start=now, end=now + timedelta(days=days))
    refresh_deadlines_for_user(user)
    return vacation


@transaction.atomic
def end_vacation(user) -> None:
    now = timezone.now()
    if not Vacation.objects.filter(user=user, start__lte=now, end__gt=now).update(end=now):
        raise NotFound(gettext("you are not on vacation"))
    refresh_deadlines_for_user(user)
