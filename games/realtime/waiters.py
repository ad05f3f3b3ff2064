"""What a waiter (a stream, a long-poll) sleeps on: its `Flag`, set by the hub
(games.realtime.hub) on news, and the longest a long-poll may ask to wait."""

from __future__ import annotations

import asyncio

MAX_WAIT_SECONDS = 30


class Flag:
    """asyncio.Event's set, clear and is_set for the one task that waits on it, and that task's
    wait with a timeout. Every open stream sleeps on one: an Event allocates a deque of 64 slots
    (about 0.8 KiB), and `asyncio.wait_for` a task around each wait, so together they were a
    tenth of what an open stream kept in `live` (docs/operations.md, "Limits of a box")."""

    __slots__ = ("_set", "_waiter")

    def __init__(self):
        self._set = False
        self._waiter: asyncio.Future | None = None

    def set(self) -> None:
        self._set = True
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(True)

    def clear(self) -> None:
        self._set = False

    def is_set(self) -> bool:
        return self._set

    async def wait(self, timeout: float) -> bool:
        """True once set (at once if it is), False when `timeout` runs out first."""
        if self._set:
            return True
        loop = asyncio.get_running_loop()
        self._waiter = waiter = loop.create_future()
        timer = loop.call_later(max(timeout, 0), _timed_out, waiter)
        try:
            return await waiter
        finally:
            timer.cancel()
            self._waiter = None


def _timed_out(waiter: asyncio.Future) -> None:
    if not waiter.done():
        waiter.set_result(False)
