"""The retention port: the form a game is held in and how it goes: a finished game's stream
compacted (service/eventstore/compact.py), a never-started game expired, an old game evicted."""
from __future__ import annotations

from typing import Protocol


class Retention(Protocol):
    def form(self, game_id: str) -> str:
        """How the game is held: "stream", "compact" or "none"."""
        ...

    def compact(self, game_id: str, expected_version: int) -> str:
        """Replace the game's stream by its compact form if it is still at ``expected_version``
        (its idempotency records go; tokens, snapshots and lobby rows stay): "compacted",
        "already" (idempotent), "conflict" (the version moved), "missing" (no stream) or
        "irregular" (a stream the compact form would not give back byte for byte: left as it is).
        A compacted game takes no more events (an append is a conflict); every read of the event
        log serves it byte for byte as before."""
        ...

    def expire_game(self, game_id: str, expected_version: int, variant: str) -> bool:
        """Delete a never-started game and everything of it (stream, tokens, lobby entries), if it
        is still at ``expected_version``."""
        ...

    def evict_game(self, game_id: str, expected_version: int, variant: str) -> bool:
        """Delete a game and everything of it (stream or compact form, tokens, snapshots, verify
        report, idempotency records, lobby row and indexes) if it is still at ``expected_version``."""
        ...
