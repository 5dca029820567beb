"""A per-process LRU of (folded game state, chain head), fast-forwarded from the stream on every load."""
from __future__ import annotations

import threading
from collections import OrderedDict

from service.games.kernel.state import TableState


class StateCache:
    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, tuple[TableState, str]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> tuple[TableState, str] | None:
        with self._lock:
            state = self._items.get(game_id)
            if state is not None:
                self._items.move_to_end(game_id)
            return state

    def put(self, game_id: str, entry: tuple[TableState, str]) -> None:
        """Keep the newest (state, head) (states are immutable; a stale put never replaces a newer one)."""
        with self._lock:
            old = self._items.get(game_id)
            if old is not None and old[0].version > entry[0].version:
                return
            self._items[game_id] = entry
            self._items.move_to_end(game_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._items.pop(game_id, None)


class FlagCache:
    """A per-process LRU of one fact per game that never changes once the game exists (whether it
    is a private table: service/app/private_tables.py)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, bool] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> bool | None:
        with self._lock:
            found = self._items.get(game_id)
            if found is not None:
                self._items.move_to_end(game_id)
            return found

    def put(self, game_id: str, flag: bool) -> None:
        with self._lock:
            self._items[game_id] = flag
            self._items.move_to_end(game_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
