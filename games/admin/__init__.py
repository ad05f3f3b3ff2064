"""The admin, one module per concept; importing them registers their pages (Django's admin
autodiscovery imports this package)."""

from games.admin import chat, common, disputes, games, outbox, tournaments

__all__ = ["chat", "common", "disputes", "games", "outbox", "tournaments"]
