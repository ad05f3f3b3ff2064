"""What a process remembers between requests, bounded: the tokens it looked up, the seats and
the game tails of its waiters."""

from __future__ import annotations

import threading

from cachetools import LRUCache


class Memory:
    """A process's memory of at most `size` entries, the least recently used going first
    (cachetools' LRUCache), safe to share between the event loop and the live threads."""

    def __init__(self, size: int):
        self._lru: LRUCache = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def get(self, key_, default=None):
        with self._lock:
            return self._lru.get(key_, default)

    def __setitem__(self, key_, value) -> None:
        with self._lock:
            self._lru[key_] = value

    def __len__(self) -> int:
        return len(self._lru)

    def clear(self) -> None:
        with self._lock:
            self._lru.clear()
