from __future__ import annotations

from django.contrib.auth import authenticate, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

import functools
import secrets
from datetime import datetime, timedelta, timezone as tz

from django.conf import settings
from django.utils import timezone, translation

from django.contrib.auth.tokens import default_token_generator
from django.core.mail import send_mail
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext

from accounts import names, personal_data, tokens
from accounts.models import (
    AuthToken,
    NotificationPreference,
    PushDevice,
    PushSubscription,
    RetiredUsername,
    User,
    Vacation,
    Webhook,
)
from accounts.webhooks import PUSH_ENDPOINT, check_url
from config import scheduling
from config.errors import DomainError, EndpointTaken, Invalid, NotFound


# Deleted accounts are renamed "deleted-<id>": nobody may register such a name before them.
DELETED_PREFIX = "deleted-"
# Guests are named "guest-<random>": a name nobody registers, so a guest is told apart by its name.
GUEST_PREFIX = "guest-"


class NotAGuest(DomainError):
    status, code = 409, "not_a_guest"


class UsernameTaken(DomainError):
    status, code = 409, "username_taken"


class BadCredentials(DomainError):
    status, code = 400, "bad_credentials"


def _name_free(username: str) -> None:
    """A name is taken when an account's, or a name retired from a deleted account within
    USERNAME_RETIRED_DAYS, compares equal to it (accounts.names: case, NFKC, confusables)."""
    wanted = names.key(username)
    if (
        wanted.startswith(names.key(DELETED_PREFIX))
        or wanted.startswith(names.key(GUEST_PREFIX))
        or User.objects.filter(username_key=wanted).exists()
        or RetiredUsername.objects.filter(key=wanted, until__gt=timezone.now()).exists()
    ):
        raise UsernameTaken(
            gettext("the username '%(username)s' is taken, or too like a name that is") % {"username": username}
        )


@transaction.atomic
def register(
    username: str, password: str, email: str = "", device: str = "", replaces: bool = False
) -> tuple[User, str]:
    _name_free(username)
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
        raise UsernameTaken(gettext("the username '%(username)s' is taken") % {"username": username}) from None
    return candidate, tokens.issue(candidate, device, replaces)[1]


@transaction.atomic
def start_as_guest(device: str = "", replaces: bool = False) -> tuple[User, str]:
    """A guest account and its token: no name to choose, no password. It is a user like any other,
    held to the same per-user limits (the API also limits how many guests one address makes)."""
    while True:
        candidate = User(username=f"{GUEST_PREFIX}{secrets.token_hex(4)}", is_guest=True)
        candidate.set_unusable_password()
        try:
            with transaction.atomic():
                candidate.save()
            break
        except IntegrityError:
            continue  # that random name is taken (one in four billion): draw another
    return candidate, tokens.issue(candidate, device, replaces)[1]


@transaction.atomic
def register_guest(user, username: str, password: str, email: str = "") -> User:
    """A guest becomes a registered account: the same account, so its games, seats, chat and
    tokens stay as they are; only the name, the password and the email are new."""
    locked = User.objects.select_for_update().get(pk=user.pk)
    if not locked.is_guest:
        raise NotAGuest(gettext("this account is registered already"))
    _name_free(username)
    locked.username, locked.email = username, email
    try:
        password_validation.validate_password(password, user=locked)
    except ValidationError as error:
        raise Invalid("password: " + " ".join(error.messages)) from None
    locked.set_password(password)
    locked.is_guest = False
    try:
        with transaction.atomic():
            locked.save(update_fields=["username", "email", "password", "is_guest"])
    except IntegrityError:
        raise UsernameTaken(gettext("the username '%(username)s' is taken") % {"username": username}) from None
    return locked


def obtain_token(username: str, password: str, device: str = "", replaces: bool = False) -> tuple[AuthToken, str]:
    """A new token (the key is in the answer only); with `replaces`, `device` is an explicit
    device id and the device's older token goes."""
    user = authenticate(username=username, password=password)
    if user is None or not user.is_active:
        raise BadCredentials(gettext("unknown username or wrong password"))
    return tokens.issue(user, device, replaces)


def revoke_token(user, token_id: int) -> None:
    if not AuthToken.objects.filter(user=user, pk=token_id).delete()[0]:
        raise NotFound(gettext("no such token"))


def logout(user, token) -> None:
    """End the session of the token the request came with (a session cookie: nothing to end)."""
    if isinstance(token, AuthToken):
        AuthToken.objects.filter(user=user, pk=token.pk).delete()


# ---------------------------------------------------------------------------------------------
# Passwords
# ---------------------------------------------------------------------------------------------
class InvalidResetLink(DomainError):
    status, code = 400, "invalid_reset_link"


def _validated(password: str, user) -> None:
    try:
        password_validation.validate_password(password, user=user)
    except ValidationError as error:
        raise Invalid("new_password: " + " ".join(error.messages)) from None


@transaction.atomic
def change_password(user, token, old_password: str, new_password: str) -> None:
    """A new password; every other token of the user is revoked (this one stays signed in)."""
    if not user.check_password(old_password):
        raise BadCredentials(gettext("the current password is wrong"))
    _validated(new_password, user)
    user.set_password(new_password)
    user.save(update_fields=["password"])
    keep = token.pk if isinstance(token, AuthToken) else None
    AuthToken.objects.filter(user=user).exclude(pk=keep).delete()


RESET_MAIL_TASK = "accounts.tasks.mail_password_reset"


def request_password_reset(email: str) -> None:
    """Have the worker mail the reset link (`mail_password_reset`). The request itself reads
    nothing and sends nothing, so a known address and an unknown one cost it the same: looking the
    accounts up and talking to the mail server here made a known address answer measurably
    slower, a way to find accounts; and a slow mail server would hold the request's worker. With
    the broker away the mail goes now, as it did before.

    An address gets one reset mail per PASSWORD_RESET_MAIL_INTERVAL_SECONDS, however many callers
    (and addresses they call from) ask: the throttle counts callers, and nobody's mailbox should
    fill with links. The claim is taken for unknown addresses alike."""
    interval = settings.PASSWORD_RESET_MAIL_INTERVAL_SECONDS
    if interval > 0 and not scheduling.once(f"password-reset:{email.lower()}", interval):
        return
    if not scheduling.send(RESET_MAIL_TASK, [email]):
        mail_password_reset(email, fail_silently=True)


def mail_password_reset(email: str, fail_silently: bool = False) -> None:
    """Mail a reset link to every active account with this address. The worker's task lets a
    mail server's error through, to be retried."""
    for user in User.objects.filter(email__iexact=email, is_active=True).exclude(email=""):
        uid = urlsafe_base64_encode(force_bytes(user.pk))
        token = default_token_generator.make_token(user)
        link = settings.PASSWORD_RESET_URL.format(uid=uid, token=token)
        # In the account's language (the worker sends it, with no request to take one from).
        with translation.override(user.language or settings.LANGUAGE_CODE):
            subject = gettext("Darkroom: reset your password")
            body = gettext(
                "Someone asked to reset the password of the Darkroom account '%(username)s'.\n"
                "To choose a new one, open %(link)s\n(uid %(uid)s, token %(token)s).\n"
                "If it was not you, ignore this message: the password stays as it is."
            ) % {"username": user.username, "link": link, "uid": uid, "token": token}
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email], fail_silently=fail_silently)


@transaction.atomic
def reset_password(uid: str, token: str, new_password: str) -> None:
    """Django's token generator: the link stops working once the password changed (or after
    PASSWORD_RESET_TIMEOUT). Every token of the user is revoked: whoever had the password is out."""
    try:
        user_id = int(force_str(urlsafe_base64_decode(uid)))
    except (TypeError, ValueError, OverflowError):
        user_id = None
    user = User.objects.select_for_update().filter(pk=user_id, is_active=True).first() if user_id else None
    if user is None or not default_token_generator.check_token(user, token):
        raise InvalidResetLink(gettext("this reset link is invalid or has expired; ask for a new one"))
    _validated(new_password, user)
    user.set_password(new_password)
    user.save(update_fields=["password"])
    AuthToken.objects.filter(user=user).delete()


# ---------------------------------------------------------------------------------------------
# Notification preferences, webhooks, vacations
# ---------------------------------------------------------------------------------------------
def preferences(user) -> NotificationPreference:
    return NotificationPreference.objects.get_or_create(user=user)[0]


_UNSET = object()
# Names in the zone database that are no place's time: the host's own zone under whatever it is
# set to, tzdata's placeholder with no offset of its own, and the database's alternative trees.
_NOT_PLACES = {"localtime", "Factory", "posixrules"}


@functools.cache
def quiet_zones() -> frozenset[str]:
    """The IANA zones quiet hours may be kept in: the server's zone database, places only."""
    import zoneinfo

    return frozenset(
        name
        for name in zoneinfo.available_timezones()
        if name not in _NOT_PLACES and not name.startswith(("posix/", "right/"))
    )


def languages() -> list[str]:
    """The languages an account may choose (settings.LANGUAGES)."""
    return [code for code, _ in settings.LANGUAGES]


@transaction.atomic
def update_preferences(user, channels=None, email_digest_minutes=None, quiet_hours=_UNSET, language=_UNSET):
    # Checked before anything is changed: a language the server does not speak writes nothing.
    if language is not _UNSET and language is not None and language not in languages():
        raise Invalid(
            gettext("language: %(language)s is not a language this server speaks (%(known)s)")
            % {"language": language, "known": ", ".join(languages())}
        )
    prefs = preferences(user)
    if quiet_hours is not _UNSET:
        # Checked before anything is changed: a bad zone writes nothing.
        if quiet_hours is None:
            prefs.quiet_start = prefs.quiet_end = None
        else:
            if quiet_hours["tz"] not in quiet_zones():
                raise Invalid(
                    gettext("quiet_hours.tz: unknown time zone '%(tz)s' (an IANA name, e.g. Europe/Paris)")
                    % {"tz": quiet_hours["tz"]}
                )
            # Wall-clock times in `tz`: an offset the client wrote with them is not theirs to give.
            # Quiet hours are minutes: what is kept is what is shown (HH:MM), so 01:00:00.9 to
            # 01:00:00.8 is 01:00 to 01:00, no quiet time, not a day less a microsecond.
            prefs.quiet_start = quiet_hours["start"].replace(second=0, microsecond=0, tzinfo=None)
            prefs.quiet_end = quiet_hours["end"].replace(second=0, microsecond=0, tzinfo=None)
            prefs.quiet_tz = quiet_hours["tz"]
    if channels is not None:
        if not isinstance(channels, dict):
            raise Invalid(gettext("channels must be an object of notification type -> list of channels"))
        for kind, chosen in channels.items():
            if kind not in NotificationPreference.TYPES:
                raise Invalid(
                    gettext("unknown notification type '%(kind)s'; known: %(value)s")
                    % {"kind": kind, "value": ", ".join(NotificationPreference.TYPES)}
                )
            if (
                not isinstance(chosen, list)
                or not all(isinstance(c, str) for c in chosen)
                or not set(chosen) <= set(NotificationPreference.CHANNELS)
            ):
                raise Invalid(
                    gettext("channels.%(kind)s must be a list drawn from %(value)s")
                    % {"kind": kind, "value": ", ".join(NotificationPreference.CHANNELS)}
                )
        prefs.channels = {**prefs.channels, **{k: sorted(set(v)) for k, v in channels.items()}}
    if email_digest_minutes is not None:
        prefs.email_digest_minutes = email_digest_minutes
    prefs.save()
    if language is not _UNSET and (language or "") != user.language:
        user.language = language or ""
        user.save(update_fields=["language"])
    return prefs


@transaction.atomic
def add_webhook(user, url: str):
    check_url(url)
    _hold(user)
    limit = settings.WEBHOOKS_PER_USER
    if Webhook.objects.filter(user=user, active=True).count() >= limit:
        raise Invalid(gettext("at most %(limit)s webhooks per user: remove one first") % {"limit": limit})
    return Webhook.objects.create(user=user, url=url, secret=secrets.token_hex(32))


def remove_webhook(user, webhook_id: int) -> None:
    # A removed webhook is gone for its owner (404 from then on); its rows stay for the audit.
    if not Webhook.objects.filter(user=user, pk=webhook_id, active=True).update(active=False):
        raise NotFound(gettext("no such webhook"))


def vacation_days_used(user, year: int) -> float:
    start, end = datetime(year, 1, 1, tzinfo=tz.utc), datetime(year + 1, 1, 1, tzinfo=tz.utc)
    used = 0.0
    for v in Vacation.objects.filter(user=user, start__lt=end, end__gt=start):
        used += (min(v.end, end) - max(v.start, start)).total_seconds() / 86400
    return used


# ---------------------------------------------------------------------------------------------
# Leaving: export my data, delete my account
# ---------------------------------------------------------------------------------------------
def export_data(user) -> dict:
    """Everything the apps hold about the user, one entry per registered holder."""
    return {"exported_at": timezone.now(), "data": {h.name: h.export(user) for h in personal_data.holders()}}


@transaction.atomic
def delete_account(user, password: str) -> None:
    """Erase the person, keep the games: every registered holder erases its data, then the user
    row stays (seats, events and disputes refer to it) under an anonymous name, without email,
    password or any way to sign in."""
    user = User.objects.select_for_update().get(pk=user.pk)
    if not user.check_password(password):
        raise BadCredentials(gettext("the password is wrong"))
    personal_data.check_erasable(user)  # games: no seat in an open or active game (games_in_progress)
    for holder in personal_data.holders():
        holder.erase(user)
    # The old name rests: nobody may take it (or a look-alike) for USERNAME_RETIRED_DAYS.
    RetiredUsername.objects.update_or_create(
        key=names.key(user.username),
        defaults={"until": timezone.now() + timedelta(days=settings.USERNAME_RETIRED_DAYS)},
    )
    user.username = f"{DELETED_PREFIX}{user.pk}"
    if User.objects.filter(username_key=names.key(user.username)).exclude(pk=user.pk).exists():
        user.username += "-" + secrets.token_hex(4)  # an account older than the reserved prefix
    user.email = user.first_name = user.last_name = ""
    user.is_active = user.is_staff = user.is_superuser = False
    user.set_unusable_password()
    user.save()
    user.groups.clear()
    user.user_permissions.clear()


# ---------------------------------------------------------------------------------------------
# Push: browsers' subscriptions and mobile devices (docs/time-and-notifications.md)
# ---------------------------------------------------------------------------------------------
def _valid_push_keys(p256dh: str, auth: str) -> bool:
    """Whether a subscription's keys can be encrypted for (RFC 8291): a P-256 point and a 16-byte
    secret, both base64url."""
    import base64
    import binascii

    from cryptography.hazmat.primitives.asymmetric import ec

    def raw(value: str) -> bytes:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))

    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw(p256dh))
        return len(raw(auth)) == 16
    except (ValueError, TypeError, binascii.Error):
        return False


def _hold(user) -> None:
    """Lock the user's row: their registrations are counted against the limit one at a time."""
    User.objects.select_for_update(no_key=True).filter(pk=user.pk).first()


@transaction.atomic
def add_push_subscription(user, endpoint: str, p256dh: str, auth: str, user_agent: str = ""):
    """Register (or re-register) a browser's subscription. An endpoint is one browser's: a browser
    shared by two accounts pushes for the one logged in last, which it proves by sending the
    subscription's own keys (the auth secret is the browser's alone). Another account's endpoint
    with other keys is refused. Whoever ends up with it must be within PUSH_MAX_PER_USER."""
    check_url(endpoint, PUSH_ENDPOINT)
    if not _valid_push_keys(p256dh, auth):
        raise Invalid(gettext("keys.p256dh must be a P-256 public key and keys.auth a 16-byte secret, base64url"))
    _hold(user)
    existing = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
    if existing is not None and existing.user_id != user.pk and (existing.p256dh, existing.auth) != (p256dh, auth):
        raise EndpointTaken(
            gettext(
                "another account has registered this push endpoint; only the browser that holds it can move it, with its own keys"
            )
        )
    if (existing is None or existing.user_id != user.pk) and PushSubscription.objects.filter(
        user=user
    ).count() >= settings.PUSH_MAX_PER_USER:
        raise Invalid(
            gettext("at most %(PUSH_MAX_PER_USER)s push subscriptions per user")
            % {"PUSH_MAX_PER_USER": settings.PUSH_MAX_PER_USER}
        )
    if existing is not None:
        existing.user, existing.p256dh, existing.auth, existing.user_agent = user, p256dh, auth, user_agent[:200]
        existing.save(update_fields=["user", "p256dh", "auth", "user_agent"])
        return existing, False
    return PushSubscription.objects.create(
        user=user, endpoint=endpoint, p256dh=p256dh, auth=auth, user_agent=user_agent[:200]
    ), True


def remove_push_subscription(user, subscription_id: int | None = None, endpoint: str | None = None) -> None:
    query = PushSubscription.objects.filter(user=user)
    query = query.filter(pk=subscription_id) if subscription_id is not None else query.filter(endpoint=endpoint)
    if not query.delete()[0]:
        raise NotFound(gettext("no such push subscription"))


@transaction.atomic
def add_push_device(user, platform: str, token: str, name: str = ""):
    """Register (or move to this user) a device token; a token is one app install's."""
    _hold(user)
    existing = PushDevice.objects.select_for_update().filter(platform=platform, token=token).first()
    if (existing is None or existing.user_id != user.pk) and PushDevice.objects.filter(
        user=user
    ).count() >= settings.PUSH_MAX_PER_USER:
        raise Invalid(
            gettext("at most %(PUSH_MAX_PER_USER)s push devices per user")
            % {"PUSH_MAX_PER_USER": settings.PUSH_MAX_PER_USER}
        )
    if existing is not None:
        existing.user, existing.name = user, name
        existing.save(update_fields=["user", "name"])
        return existing, False
    return PushDevice.objects.create(user=user, platform=platform, token=token, name=name), True


def remove_push_device(user, device_id: int) -> None:
    if not PushDevice.objects.filter(user=user, pk=device_id).delete()[0]:
        raise NotFound(gettext("no such push device"))
