"""The long-poll (GET /games/{id}/events/?wait=): what EventsView found when there was nothing to
send yet (`LongPoll`), and its answer once there is news, waited for on the event loop without a
thread; and what lets a long-poll that comes back after each move start without a query
(`known_game`)."""

from __future__ import annotations

import asyncio
import copy
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from redis.exceptions import RedisError
from django.http import HttpResponseBase
from rest_framework.response import Response

from games.api.streams.guard import Guard
from games.api.streams.loop import caller
from games.api.streams.tails import tails
from games.models import Game
from games.realtime import channels, limits, memory, threads, waiters


async def answer(the_hub, poll: LongPoll, epoch: tuple[int, int] | None) -> HttpResponseBase:
    """The long-poll's answer, once there is news or its wait is over (then what EventsView read
    at first, with no events). `epoch`: how the hub heard the game's channel before the view
    read the game (None: not heard)."""
    news = await wait_for_news(the_hub, poll, epoch)
    if news is None:
        return Response(poll.first)
    # News, maybe long after the view checked the caller: the token may be revoked or the game
    # no longer theirs to see (docs/social.md, "Open channels").
    ended = await poll_ended(poll)
    return ENDED_ANSWERS[ended]() if ended else Response(news)


@dataclass
class LongPoll:
    """What EventsView read when there was nothing to send yet: the rest is done on the loop."""

    game_id: Any
    first: dict  # the view's answer as it read it (no events yet): sent if the wait brings none
    after: int
    wait: float
    limit: int
    seat: int | None
    reread: Callable[[], dict]  # the view's own answer, read again (sync)
    guard: "Guard | None" = None  # asked again before the news is delivered
    places: "limits.Places | None" = None  # its place among its caller's long-polls, given back at the end


def poll_places(request, game: Game, wait: float) -> "limits.Places":
    """A place for this long-poll (429 with Retry-After past LIVE_POLLS_PER_USER or
    LIVE_POLLS_PER_USER_GAME)."""
    return limits.take_long_poll(caller(request)[0], game.pk, wait)


async def wait_for_news(the_hub, poll: LongPoll, epoch: tuple[int, int] | None) -> dict | None:
    """The long-poll's wait, holding its place among its caller's long-polls until it ends."""
    try:
        return await _long_poll(the_hub, poll, epoch)
    finally:
        if poll.places is not None:
            try:
                await poll.places.arelease()  # on the loop: the reading threads are for reads
            except (RedisError, OSError):
                pass  # its lease runs out by itself


async def poll_ended(poll: LongPoll) -> str | None:
    """Why the long-poll may no longer deliver ("token", "game"), or None."""
    if poll.guard is None or poll.guard.settled():
        return None
    return await threads.run_sync(poll.guard.ended)


# A long-poll's news that may no longer be delivered: the answers the view would now give.
ENDED_ANSWERS = {
    "token": lambda: _plain_error(401, "authentication_failed", "invalid, revoked or expired token"),
    "game": lambda: _plain_error(404, "not_found", "no such game"),
}


def _plain_error(status_code: int, code: str, detail: str):
    from games.api.errors import json_error

    response = json_error(status_code, code, detail)
    if status_code == 401:
        response["WWW-Authenticate"] = "Token"
    return response


async def _long_poll(the_hub, poll: LongPoll, epoch: tuple[int, int] | None) -> dict | None:
    """The events after `poll.after` as soon as there are any (None: none by the end of the wait).

    While the hub hears the game's channel as it did when the game was last read (`since`),
    whatever committed since reached it: its announced version says whether there is news, and
    news is read once per game and process (`tails`), not once per waiter."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + min(max(poll.wait, 0), waiters.MAX_WAIT_SECONDS)
    name = channels.channel(poll.game_id)
    listener = the_hub.listen([name])
    trusted = epoch  # how the hub heard the channel when the game was last read, or None
    spectator = poll.seat is None
    try:
        await listener.ready()
        while True:
            listener.clear()
            hearing = the_hub.since(name)
            if hearing is not None and hearing == trusted:
                announced = the_hub.versions.get(name, 0)
                tail = (
                    await tails.get(poll.game_id, poll.after, announced, spectator) if announced > poll.after else None
                )
            else:
                trusted = hearing  # before the read: news from now on is heard (or polled for)
                tail = await tails.get(poll.game_id, poll.after, None, spectator)
            if tail is not None and tail.game.version > poll.after:
                entries = tail.entries(poll.after, poll.seat, poll.limit)
                if len(entries) < poll.limit and not tail.complete:
                    return await threads.run_sync(poll.reread)  # more than the tail holds
                return {"version": tail.game.version, "your_seat": poll.seat, "events": entries}
            left = deadline - loop.time()
            if left <= 0:
                return None
            await listener.wait(min(left, the_hub.sleep_for(left)))
    finally:
        listener.close()


_seats = memory.Memory(100_000)  # (game, user) -> (seat,), in games past their lobby (None: a spectator)


def known_game(request, game_id, hub) -> Game | None:
    """For a long-poll, without a query: the game as this process's readers last read it, with
    the caller's seat (remembered once the lobby is over: seats no longer change), when the hub
    has heard of no newer version since. A commit still on its way is no matter: the long-poll
    then wakes on its announcement (see _long_poll)."""
    try:
        key = uuid.UUID(str(game_id))
    except ValueError:
        return None
    tail, remembered = tails.latest.get(key), _seats.get((key, request.user.pk))
    if not hub.live or tail is None or remembered is None:
        return None
    if hub.versions.get(channels.channel(key)) != tail.game.version:
        return None
    game = copy.copy(tail.game)  # shared by the readers: annotated for this request only
    game._seat_known = (request.user.pk, remembered[0])
    return game


def remember_seat(game: Game, user, seat: int | None) -> None:
    if game.status != Game.Status.OPEN and user.is_authenticated:
        _seats[game.pk, user.pk] = (seat,)
