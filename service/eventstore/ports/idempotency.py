"""The idempotency port: the answers stored under a command's Idempotency-Key (written by the
append, read before a retry decides anything)."""
from __future__ import annotations

from typing import Protocol


class IdempotencyRecords(Protocol):
    def idem_get(self, game_id: str, key: str) -> bytes | None:
        """The answer stored under a caller-scoped key of the game, while it lives."""
        ...
