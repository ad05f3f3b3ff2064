from __future__ import annotations

from django.contrib.auth import authenticate, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

import secrets
from datetime import datetime, timedelta, timezone as tz

from django.conf import settings
from django.utils import timezone

from accounts.models import NotificationPreference, User, Vacation, Webhook
from games.errors import DomainError, Invalid, NotFound
from games.turns import refresh_deadlines_for_user
from games.webhooks import check_url


class UsernameTaken(DomainError):
    status, code = 409, "username_taken"


class BadCredentials(DomainError):
    status, code = 400, "bad_credentials"


@transaction.atomic
def register(username: str, password: str, email: str = "") -> tuple[User, str]:
    if User.objects.filter(username__iexact=username).exists():
        raise UsernameTaken(f"the username '{username}' is taken")
    candidate = User(username=username, email=email)
    try:
        password_validation.validate_password(password, user=candidate)
    except ValidationError as error:
        raise Invalid("password: " + " ".join(error.messages)) from None
    candidate.set_password(password)
    try:
        with transaction.atomic():
            candidate.save()
    except IntegrityError:
        raise UsernameTaken(f"the username '{username}' is taken") from None
    return candidate, Token.objects.create(user=candidate).key


def obtain_token(username: str, password: str) -> str:
    user = authenticate(username=username, password=password)
    if user is None or not user.is_active:
        raise BadCredentials("unknown username or wrong password")
    return Token.objects.get_or_create(user=user)[0].key


# ---------------------------------------------------------------------------------------------
# Notification preferences, webhooks, vacations
# ---------------------------------------------------------------------------------------------
def preferences(user) -> NotificationPreference:
    return NotificationPreference.objects.get_or_create(user=user)[0]


@transaction.atomic
def update_preferences(user, channels=None, email_digest_minutes=None):
    prefs = preferences(user)
    if channels is not None:
        if not isinstance(channels, dict):
            raise Invalid("channels must be an object of notification type -> list of channels")
        for kind, chosen in channels.items():
            if kind not in NotificationPreference.TYPES:
                raise Invalid(f"unknown notification type '{kind}'; known: {', '.join(NotificationPreference.TYPES)}")
            if (not isinstance(chosen, list) or not all(isinstance(c, str) for c in chosen)
                    or not set(chosen) <= set(NotificationPreference.CHANNELS)):
                raise Invalid(f"channels.{kind} must be a list drawn from {', '.join(NotificationPreference.CHANNELS)}")
        prefs.channels = {**prefs.channels, **{k: sorted(set(v)) for k, v in channels.items()}}
    if email_digest_minutes is not None:
        prefs.email_digest_minutes = email_digest_minutes
    prefs.save()
    return prefs


def add_webhook(user, url: str):
    check_url(url)
    if Webhook.objects.filter(user=user, active=True).count() >= 5:
        raise Invalid("at most 5 webhooks per user")
    return Webhook.objects.create(user=user, url=url, secret=secrets.token_hex(32))


def remove_webhook(user, webhook_id: int) -> None:
    # A removed webhook is gone for its owner (404 from then on); its rows stay for the audit.
    if not Webhook.objects.filter(user=user, pk=webhook_id, active=True).update(active=False):
        raise NotFound("no such webhook")


def vacation_days_used(user, year: int) -> float:
    start, end = datetime(year, 1, 1, tzinfo=tz.utc), datetime(year + 1, 1, 1, tzinfo=tz.utc)
    used = 0.0
    for v in Vacation.objects.filter(user=user, start__lt=end, end__gt=start):
        used += (min(v.end, end) - max(v.start, start)).total_seconds() / 86400
    return used


@transaction.atomic
def start_vacation(user, days: float):
    """Stop the user's clocks in every game for `days`, from now, within the yearly allowance."""
    User.objects.select_for_update().get(pk=user.pk)  # one vacation change at a time per user
    now = timezone.now()
    if Vacation.objects.filter(user=user, start__lte=now, end__gt=now).exists():
        raise Invalid("you are on vacation already; end it before starting another")
    left = settings.VACATION_DAYS_PER_YEAR - vacation_days_used(user, now.year)
    if not 0 < days <= left:
        raise Invalid(f"you have {left:.2f} vacation days left this year; ask for more than 0 and at most that")
    vacation = Vacation.objects.create(user=user, start=now, end=now + timedelta(days=days))
    refresh_deadlines_for_user(user)
    return vacation


@transaction.atomic
def end_vacation(user) -> None:
    now = timezone.now()
    if not Vacation.objects.filter(user=user, start__lte=now, end__gt=now).update(end=now):
        raise NotFound("you are not on vacation")
    refresh_deadlines_for_user(user)
