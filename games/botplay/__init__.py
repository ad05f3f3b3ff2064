"""Bots at the table: bot accounts, and their moves through the same use case as a person's.

games.bots decides (pure); this package seats bot accounts, notices after commit when a bot's
seat has something to do, and plays its move from a Celery task on a queue of its own
(settings.BOTS_QUEUE), so a slow search never delays a clock or a notification."""
