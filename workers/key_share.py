"""A lane's slots shared fairly across API keys (issue 37; docs/reliability.md, "Fair shares").

The search lane's fair line (workers/fair.py) shares search time; this shares a lane's *slots*: the
threads of the remote lane, the hooks lane and the arena lane, where one job may wait seconds on
someone else's server or play a whole game. Work is lined up per key (the key that owns the table,
the endpoint or the arena; ``ANONYMOUS`` for work of no key) and taken round robin across keys, one
job of a key per turn. While another key has work waiting, one key holds at most ``slots - 1`` of the
``slots``; alone it may use them all. So a key whose every call hangs until its total deadline holds
back only itself: another key's next job starts as soon as one slot is free, and a key never finds
every slot held by another one for longer than one call's deadline.

Thread-safe: a feeder thread ``put``s, ``slots`` runner threads ``take`` and ``done``.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
ANONYMOUS = "-"  # the key of work no API key owns (anonymous tables)


@dataclass(frozen=True, slots=True)
class Taken(Generic[T]):
    key: str
    item: T


class KeyShare(Generic[T]):
    """Jobs waiting per key, handed to at most ``slots`` runners at once in fair order."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self._cond = threading.Condition()
        self._waiting: OrderedDict[str, deque[T]] = OrderedDict()  # round-robin order: the next key first
        self._running: dict[str, int] = {}

    # ------------------------------------------------------------------ feeding
    def put(self, key: str, item: T) -> None:
        """Line up one job of ``key`` (behind that key's earlier jobs)."""
        with self._cond:
            self._waiting.setdefault(key or ANONYMOUS, deque()).append(item)
            self._cond.notify_all()

    def waiting(self) -> int:
        with self._cond:
            return sum(len(q) for q in self._waiting.values())

    def running(self, key: str | None = None) -> int:
        with self._cond:
            return self._running.get(key, 0) if key is not None else sum(self._running.values())

    # ------------------------------------------------------------------ running
    def _eligible(self, key: str) -> bool:
        if sum(self._running.values()) >= self.slots:
            return False
        if self._running.get(key, 0) < max(1, self.slots - 1):
            return True  # (one slot in all: taken in turn, one job at a time)
        # this key would take its last free slot (or more): only while no other key waits
        return not any(k != key and q for k, q in self._waiting.items())

    def _pick(self) -> Taken[T] | None:
        for key in list(self._waiting):
            if self._eligible(key):
                queue = self._waiting.pop(key)
                item = queue.popleft()
                if queue:
                    self._waiting[key] = queue  # its next job waits for the key's next turn
                self._running[key] = self._running.get(key, 0) + 1
                return Taken(key, item)
        return None

    def take(self, timeout_s: float | None = None) -> Taken[T] | None:
        """The next job in fair order, counted as running until ``done``; None after ``timeout_s``."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        with self._cond:
            while True:
                got = self._pick()
                if got is not None:
                    return got
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None
                self._cond.wait(left)

    def done(self, key: str) -> None:
        """A job of ``key`` taken earlier has ended (whatever its outcome): its slot is free."""
        with self._cond:
            n = self._running.get(key, 0) - 1
            if n > 0:
                self._running[key] = n
            else:
                self._running.pop(key, None)
            self._cond.notify_all()
