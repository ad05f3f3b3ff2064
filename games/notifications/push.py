"""Push: a notice sent to the player's browsers (Web Push) and phones (APNs, FCM).

A push is one more channel of the outbox (games.notifications.notify): a notice the player wants
pushed gets one Delivery with channel "push", and games.tasks.deliver_push sends it, on the push
queue, to every browser and device the player registered. What is sent is what the inbox shows
(the notice's title, already free of hidden information) plus the other players' names and the
game's address: never the notice's data, never a card.

Web Push: the payload is encrypted for the browser (RFC 8291, aes128gcm, by http_ece: `encrypt`)
and the request signed with the deployment's VAPID key (RFC 8292, by py_vapid); the
POST itself goes through accounts.webhooks.post_bytes, so a push service's URL gets the webhook's
address checks and a deadline over the whole request. APNs and FCM: games.notifications.mobile
sends to the phones with the credentials in settings (APNS_*, FCM_CREDENTIALS_PATH) to the
endpoints in settings (APNS_ENDPOINT, FCM_ENDPOINT), each send within the same deadline. A
platform without usable credentials is skipped, and `check` says so (config/checks).
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.utils.translation import gettext, gettext_noop

from accounts import webhooks

if TYPE_CHECKING:
    from games.notifications import mobile

# A push that says nothing new is replaced on the device by the next one with the same topic
# (RFC 8030 section 5.4; at most 32 base64url characters) and the same notification tag.
TOPIC_MAX = 32


def web_push_ready() -> bool:
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY)


def apns_problem() -> str:
    """Why APNs cannot be sent to ('' when it can): a setting unset, a key file unreadable."""
    from games.notifications import mobile  # httpx and google-auth: loaded by the push worker alone

    try:
        mobile.apns_key()
    except mobile.Unusable as exc:
        return str(exc)
    return ""


def fcm_problem() -> str:
    """Why FCM cannot be sent to ('' when it can): no key file, or not a service account's."""
    from games.notifications import mobile

    try:
        mobile.fcm_credentials()
    except mobile.Unusable as exc:
        return str(exc)
    return ""


def apns_ready() -> bool:
    return not apns_problem()


def fcm_ready() -> bool:
    return not fcm_problem()


def missing_platforms() -> list[tuple[str, str]]:
    """What `check` warns about: (platform, why) for each platform the deployment means to push
    to (settings.PUSH_PLATFORMS) whose pushes would be skipped."""
    missing = []
    wanted = set(settings.PUSH_PLATFORMS)
    if "web" in wanted and not web_push_ready():
        missing.append(
            (
                "web",
                "Web Push has no VAPID key pair (VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY; "
                "`manage.py vapid_keys` makes one): browsers get no push",
            )
        )
    if "apns" in wanted and (problem := apns_problem()):
        missing.append(("apns", f"APNs credentials: {problem}: iOS devices are registered but get no push"))
    if "fcm" in wanted and (problem := fcm_problem()):
        missing.append(("fcm", f"FCM credentials: {problem}: Android devices are registered but get no push"))
    return missing


def check(app_configs=None, **kwargs):
    """The `check` framework's word on push (registered by GamesConfig.ready)."""
    from django.core import checks

    ids = {"web": "darkroom.W101", "apns": "darkroom.W102", "fcm": "darkroom.W103"}
    return [
        checks.Warning(
            why,
            hint="docs/time-and-notifications.md, 'For operators'; leave the platform "
            "out of PUSH_PLATFORMS if you do not mean to push there",
            id=ids[platform],
        )
        for platform, why in missing_platforms()
    ]


# ---------------------------------------------------------------------------------------------
# Quiet hours
# ---------------------------------------------------------------------------------------------
def zone(name: str) -> ZoneInfo | None:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def quiet_until(start, end, tz_name: str, now: datetime) -> datetime | None:
    """When the player's quiet hours end if `now` falls in them, else None. Start and end are
    wall-clock times in their zone; start > end runs across midnight; start == end is no quiet."""
    if start is None or end is None or start == end:
        return None
    tz = zone(tz_name) or ZoneInfo("UTC")
    local = now.astimezone(tz)
    clock = local.time().replace(tzinfo=None)
    inside = start <= clock < end if start < end else (clock >= start or clock < end)
    if not inside:
        return None
    # The next instant the wall clock reads `end`: of that wall time today and tomorrow, in both
    # of its readings (an hour the clocks go back through is read twice, `fold` 0 and 1), the
    # first still ahead. An `end` the clocks jump over (a gap) counts from the offset before the
    # jump (fold 0), so it lands as far past the jump as `end` was past its start. Always later
    # than `now`: a push rescheduled to it never comes back at once.
    ahead = [
        moment
        for day in (local.date(), local.date() + timedelta(days=1))
        for fold in (0, 1)
        if (moment := datetime.combine(day, end, tzinfo=tz).replace(fold=fold).astimezone(now.tzinfo)) > now
    ]
    return min(ahead, default=None)


# ---------------------------------------------------------------------------------------------
# What the player sees
# ---------------------------------------------------------------------------------------------
def message(note, others: list[str]) -> dict:
    """The notification as the device shows it: the inbox's title with the other players named,
    a line of body, the game's page in the web client, and a tag that folds repeats together.

    Only the notice's title (the inbox's, written without hidden information) and public facts
    (who sits at the table) go in: never the notice's data. In the active language: the caller
    renders it in the recipient's (notify.in_language), as the title was written."""
    title = note.title
    if note.game_id and others and note.type in ("your_turn", "reminder"):
        title = gettext("%(title)s with %(players)s") % {"title": title, "players": ", ".join(others)}
    url = f"/#/games/{note.game_id}" if note.game_id else "/#/inbox"
    return {
        "title": title,
        "body": gettext(BODIES[note.type]) if note.type in BODIES else "",
        "url": url,
        "tag": f"{note.type}:{note.game_id or note.pk}",
        "id": note.pk,
    }


BODIES = {
    "your_turn": gettext_noop("It is your move."),
    "reminder": gettext_noop("Your clock is running out."),
    "timed_out": gettext_noop("A clock ran out."),
    "dispute": gettext_noop("Open the game to see it."),
    "finished": gettext_noop("See the result."),
    "chat": gettext_noop("Open the game to read it."),
    "invitation": gettext_noop("Open Darkroom to answer."),
    "abort_vote": gettext_noop("Open the game to vote."),
    "joined": gettext_noop("Open the game to greet them."),
    "tournament": gettext_noop("Open Darkroom to see the tournament."),
    "ladder": gettext_noop("Open Darkroom to see the ladder."),
}


# ---------------------------------------------------------------------------------------------
# Web Push
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class WebTarget:
    """A subscription as read in the claiming transaction: the send needs no model."""

    pk: int
    endpoint: str
    p256dh: str
    auth: str


def _vapid():
    from py_vapid import Vapid02

    key = settings.VAPID_PRIVATE_KEY
    return Vapid02.from_pem(key.encode()) if "BEGIN" in key else Vapid02.from_string(key)


def send_web(target: WebTarget, payload: dict, ttl: int | None = None) -> webhooks.Outcome:
    """One encrypted, signed POST to one browser's push service, over within the deadline."""
    body = json.dumps(payload, separators=(",", ":")).encode()
    encrypted = encrypt(body, target.p256dh, target.auth)
    parts = urlsplit(target.endpoint)
    # The JWT's audience is the push service's origin; it expires well within the 24 h RFC 8292
    # allows, and py_vapid adds the key (k=) the service checks it with.
    claims = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "sub": settings.VAPID_SUBJECT,
        "exp": int(datetime.now().timestamp()) + 12 * 3600,
    }
    headers = {
        **_vapid().sign(claims),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "TTL": str(settings.PUSH_TTL_SECONDS if ttl is None else ttl),
        "Urgency": "normal",
        "Topic": topic(payload["tag"]),
        "User-Agent": "Darkroom-Push/1",
    }
    return webhooks.post_bytes(
        target.endpoint, encrypted, headers, settings.PUSH_DEADLINE_SECONDS, webhooks.PUSH_ENDPOINT
    )


def encrypt(body: bytes, p256dh: str, auth: str) -> bytes:
    """The body as RFC 8291 asks (aes128gcm, RFC 8188), for the browser whose subscription keys
    these are: an ephemeral ECDH key of our own on P-256 (its public half goes in the record's
    header, as http_ece writes it), the browser's public key and its auth secret."""
    import http_ece
    from cryptography.hazmat.primitives.asymmetric import ec

    return http_ece.encrypt(
        body,
        private_key=ec.generate_private_key(ec.SECP256R1()),
        dh=_unpadded_b64(p256dh),
        auth_secret=_unpadded_b64(auth),
        version="aes128gcm",
    )


def _unpadded_b64(text: str) -> bytes:
    """Base64url as browsers give a subscription's keys: without padding."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def topic(tag: str) -> str:
    """The tag as an RFC 8030 topic: base64url characters only, at most 32 of them."""
    import hashlib

    return base64.urlsafe_b64encode(hashlib.sha256(tag.encode()).digest()).decode()[:TOPIC_MAX]


def gone(outcome: webhooks.Outcome) -> bool:
    """The push service says the subscription no longer exists (RFC 8030 section 7.3: 404, 410)."""
    return outcome.status_code in (404, 410)


# ---------------------------------------------------------------------------------------------
# Phones: APNs and FCM (games.notifications.mobile sends)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DeviceTarget:
    """A registered phone as read in the claiming transaction."""

    pk: int
    platform: str
    token: str


def collapse_id(tag: str) -> str:
    """What folds repeats together on a phone: the tag itself when short enough (APNs takes at
    most 64 bytes), else its topic."""
    return tag if len(tag.encode()) <= 64 else topic(tag)


def send_device(target: DeviceTarget, payload: dict) -> mobile.Answer:
    """The same notice as a browser gets, to one phone, within the deadline."""
    from games.notifications import mobile

    if target.platform == "apns":
        return mobile.send_apns(target.token, payload, collapse_id(payload["tag"]))
    return mobile.send_fcm(target.token, payload, collapse_id(payload["tag"]))


def send(target: WebTarget | DeviceTarget, payload: dict) -> webhooks.Outcome | mobile.Answer:
    return send_web(target, payload) if isinstance(target, WebTarget) else send_device(target, payload)


def is_gone(target: WebTarget | DeviceTarget, outcome) -> bool:
    """The push service says this browser's subscription or this phone's token no longer exists."""
    return gone(outcome) if isinstance(target, WebTarget) else bool(getattr(outcome, "gone", False))
