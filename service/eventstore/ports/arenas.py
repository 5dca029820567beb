"""The arenas' store port (service/app/arenas.py): a record per arena, its games' results, the
claims of the jobs that play them, each key's arenas and the per-variant leaderboard. Implemented by
``RedisArenas`` (service/eventstore/arenas.py) and its in-memory twin ``MemoryArenas``; both pass
tests/contract/test_arenas_store.py on every backend of the contract suite."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

Score = Callable[[Mapping[str, Any]], float]  # a leaderboard row's place (higher first)


class ArenaStore(Protocol):
    def create(self, arena_id: str, key_id: str, fields: Mapping[str, str], now: int, cap: int,
               keep_per_key: int) -> bool:
        """Record a new running arena of ``key_id``; False (nothing written) when the key already
        runs ``cap`` arenas (0: no cap). A key keeps its ``keep_per_key`` newest arenas (0: all);
        an older one that is not running goes, with its results."""
        ...

    def get(self, arena_id: str) -> dict[str, str] | None:
        """The record: the given fields, ``key``, ``status``, ``next``, ``done``, ``created_at``,
        ``version`` (and ``ended_at``, ``summary`` once ended), every value a string."""
        ...

    def status(self, arena_id: str) -> str | None: ...

    def of_key(self, key_id: str, limit: int) -> list[str]:
        """A key's arenas, newest first."""
        ...

    def claim(self, arena_id: str, total: int, now: int) -> int | None:
        """The next game to play (its index), or None when every game was claimed."""
        ...

    def stale_claim(self, arena_id: str, older_than: int, now: int) -> int | None:
        """A claimed game with no result claimed before ``older_than``: claimed again at ``now``."""
        ...

    def renew(self, arena_id: str, index: int, now: int) -> None:
        """The job playing game ``index`` still does (its claim's time moves to ``now``)."""
        ...

    def oldest_open_claim(self, arena_id: str) -> int | None:
        """When the oldest claimed game with no result was claimed (None: none open)."""
        ...

    def record(self, arena_id: str, index: int, result: Mapping[str, Any]) -> int:
        """Keep a game's result (once); the number of games with a result."""
        ...

    def results(self, arena_id: str) -> dict[int, dict[str, Any]]: ...

    def end(self, arena_id: str, status: str, now: int, summary: Mapping[str, Any] | None = None) -> bool:
        """Mark a running arena ended, once (True for the caller that did): status, end time,
        summary, one more ``version``; it leaves its key's running arenas."""
        ...

    def leaderboard_page(self, variant: str, offset: int, limit: int,
                         score: Score) -> tuple[list[tuple[str, dict[str, Any]]], int]:
        """``limit`` rows from ``offset``, best first (by ``score``, then entrant), and the row count."""
        ...

    def update_leaderboard(self, variant: str, identities: Sequence[str],
                           change: Callable[[dict[str, dict[str, Any]]], dict[str, dict[str, Any]]],
                           score: Score) -> None:
        """Apply ``change`` to the rows of ``identities`` (the rows it is given) atomically."""
        ...

    def forget(self, identity: str, variants: Sequence[str]) -> None:
        """``identity`` leaves every variant's board."""
        ...
