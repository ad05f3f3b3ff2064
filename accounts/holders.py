"""The personal data the accounts and games apps hold, declared to accounts.personal_data.

Registered by AccountsConfig.ready(). What stays after an erasure, on purpose: the seats (the
games others played need them; they now show the anonymous name), the events (immutable, and
they name a user by id only), disputes (staff's record of a game) and the rating changes written
into finished games' results (per seat, no person).
"""

from __future__ import annotations

from accounts import personal_data


def _iso(value):
    return value.isoformat() if value is not None else None


def _account(user):
    return {
        "id": user.pk,
        "username": user.username,
        "email": user.email,
        "date_joined": _iso(user.date_joined),
        "last_login": _iso(user.last_login),
        "language": user.language or None,
    }


def _webhooks(user):
    return [{"url": h.url, "active": h.active, "created_at": _iso(h.created_at)} for h in user.webhooks.all()]


def _erase_webhooks(user):
    user.webhooks.all().delete()  # their deliveries go with them (CASCADE)


def _vacations(user):
    return [{"start": _iso(v.start), "end": _iso(v.end)} for v in user.vacations.all()]


def _preferences(user):
    from accounts.models import NotificationPreference

    prefs = NotificationPreference.objects.filter(user=user).first()
    return (
        None
        if prefs is None
        else {
            "channels": prefs.channels,
            "email_digest_minutes": prefs.email_digest_minutes,
            "quiet_start": _iso(prefs.quiet_start),
            "quiet_end": _iso(prefs.quiet_end),
            "quiet_tz": prefs.quiet_tz,
        }
    )


def _push_subscriptions(user):
    # The endpoint is a capability URL at the browser vendor's push service: exported to its
    # owner (it is theirs), never shown to anyone else. The keys are the browser's, not ours to
    # hand out again.
    return [
        {"endpoint": s.endpoint, "user_agent": s.user_agent, "created_at": _iso(s.created_at)}
        for s in user.push_subscriptions.order_by("pk")
    ]


def _push_devices(user):
    return [
        {"platform": d.platform, "token": d.token, "name": d.name, "created_at": _iso(d.created_at)}
        for d in user.push_devices.order_by("pk")
    ]


def _erase_preferences(user):
    from accounts.models import NotificationPreference

    NotificationPreference.objects.filter(user=user).delete()


def _tokens(user):
    return [
        {
            "device": t.device,
            "prefix": t.prefix,
            "created_at": _iso(t.created_at),
            "last_used_at": _iso(t.last_used_at),
            "expires_at": _iso(t.expires_at),
        }
        for t in user.auth_tokens.all()
    ]


def _ratings(user):
    return {
        "ratings": [
            {"kind": r.kind, "rating": r.rating, "mu": r.mu, "sigma": r.sigma, "games": r.games}
            for r in user.ratings.order_by("kind")
        ],
        "history": [
            {
                "game": str(c.game_id),
                "kind": c.kind,
                "seat": c.seat,
                "place": c.place,
                "before": c.rating_before,
                "after": c.rating_after,
                "at": _iso(c.at),
            }
            for c in user.rating_changes.all()
        ],
    }


def _erase_ratings(user):
    user.rating_changes.all().delete()
    user.ratings.all().delete()


def _notifications(user):
    return [
        {
            "game": str(n.game_id) if n.game_id else None,
            "type": n.type,
            "title": n.title,
            "created_at": _iso(n.created_at),
            "read_at": _iso(n.read_at),
        }
        for n in user.notifications.all()
    ]


def _seats(user):
    return [
        {
            "game": str(s.game_id),
            "kind": s.game.kind,
            "seat": s.number,
            "status": s.game.status,
            "joined_at": _iso(s.joined_at),
        }
        for s in user.seats.select_related("game").order_by("joined_at")
    ]


def _nothing(user):
    return None


def register() -> None:
    personal_data.register("account", export=_account, erase=_nothing)  # anonymised by the service
    personal_data.register("webhooks", export=_webhooks, erase=_erase_webhooks)
    personal_data.register("vacations", export=_vacations, erase=lambda u: u.vacations.all().delete())
    personal_data.register("notification_preferences", export=_preferences, erase=_erase_preferences)
    personal_data.register(
        "push_subscriptions", export=_push_subscriptions, erase=lambda u: u.push_subscriptions.all().delete()
    )
    personal_data.register("push_devices", export=_push_devices, erase=lambda u: u.push_devices.all().delete())
    personal_data.register("tokens", export=_tokens, erase=lambda u: u.auth_tokens.all().delete())
    personal_data.register("ratings", export=_ratings, erase=_erase_ratings)
    personal_data.register("notifications", export=_notifications, erase=lambda u: u.notifications.all().delete())
    personal_data.register(
        "mutes",
        export=lambda u: [str(g) for g in u.mutes.values_list("game_id", flat=True)],
        erase=lambda u: u.mutes.all().delete(),
    )
    personal_data.register("seats", export=_seats, erase=_nothing)  # kept: the games need them
