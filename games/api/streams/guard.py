"""Whether an open channel (a stream, a long-poll) may go on."""

from __future__ import annotations

import time

from django.conf import settings

from games.errors import NotFound
from games.models import Game
from games.play import access
from games.realtime import tokens


class Guard:
    """Whether what opened a channel still stands: the token it was opened with and, on a private
    game's channel, the caller's right to see the game (a seat, or an invitation not declined or
    cancelled). Asked at most once per heartbeat interval on an open stream, and before a
    long-poll delivers its news: a revoked token or a lost right ends the channel."""

    def __init__(self, token_id: int | None, game: Game | None = None, user=None):
        self.token_id, self.checked = token_id, time.monotonic()
        self.game_id = game.pk if game is not None and game.private else None
        self.user = user

    def __bool__(self) -> bool:
        return self.token_id is not None or self.game_id is not None

    def due(self) -> bool:
        return time.monotonic() - self.checked >= settings.LIVE_HEARTBEAT_SECONDS

    def settled(self) -> bool:
        """Whether the channel may go on, known without a query: a public game's (or the
        caller's own) channel, on a token this process still knows to be valid."""
        return self.game_id is None and (self.token_id is None or tokens.remembers_valid_token(self.token_id))

    def ended(self) -> str | None:
        """None while the channel may go on; else why not: "token" or "game"."""
        from accounts import tokens

        self.checked = time.monotonic()
        if self.token_id is not None and not tokens.still_valid(self.token_id):
            return "token"
        if self.game_id is not None:
            try:
                access.require_visible(access.get_game(self.game_id, user=self.user), self.user)
            except NotFound:
                return "game"
        return None


def guard_of(request, game: Game | None = None) -> Guard | None:
    """The guard of a channel: the token behind the request (a header's, or the one a ticket was
    bought with) and, for a private game, the caller's sight of it."""
    auth = request.auth
    token_id = auth if isinstance(auth, int) else getattr(auth, "pk", None)
    guard = Guard(token_id, game, request.user)
    return guard if guard else None
