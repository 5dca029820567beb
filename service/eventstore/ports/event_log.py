"""The event log port: each game's stream of events, appended atomically with everything a
command writes beside them (``AppendRequest``), read back, and waited on."""
from __future__ import annotations

from typing import Protocol

from service.eventstore.codec import Stored
from service.eventstore.contract import AppendRequest, AppendResult
from service.games.kernel.model import Event


class EventLog(Protocol):
    def append(self, req: AppendRequest) -> AppendResult:
        """Everything ``req`` writes (events, follow-ups, tokens, idempotency record, lobby row and
        indexes), if the game is still at ``req.expected_version``, or nothing."""
        ...

    def read(self, game_id: str, after: int = 0) -> list[Event]: ...

    def read_stored(self, game_id: str, after: int = 0, count: int | None = None) -> list[Stored]: ...

    def version(self, game_id: str) -> int:
        """The game's version (its number of events; 0 for an unknown game)."""
        ...

    def versions(self, game_ids: list[str]) -> dict[str, int]: ...

    def wait(self, game_id: str, after: int, timeout_s: float) -> bool:
        """Whether the game holds an event after ``after`` within ``timeout_s`` (a long-poll)."""
        ...
