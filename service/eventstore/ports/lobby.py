"""The lobby port: each game's summary row and the per-shard indexes (by status and variant,
newest first) the append keeps (``Listing``), read a page at a time."""
from __future__ import annotations

from typing import Protocol


class Lobby(Protocol):
    def lobby(self) -> dict[str, bytes]:
        """Every game's summary row, by game id."""
        ...

    def lobby_page(self, status: str | None, variant: str | None, before: tuple[int, str] | None,
                   limit: int) -> list[bytes]:
        """Up to ``limit`` summaries, newest first (ties by id), strictly after the cursor ``before``
        ((created_at, id) of the last game of the previous page); O(shards x limit)."""
        ...

    def index_lobby(self) -> int:
        """Index the games listed before the lobby indexes existed (idempotent); how many."""
        ...
