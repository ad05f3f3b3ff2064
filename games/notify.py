"""Notifications: placeholder until the notification work lands."""


def on_events(game, rows, state, engine) -> None:
    return None


def dispute_changed(game, dispute) -> None:
    return None
