"""The snapshots port: a cache of a game's folded states by version (service/app/snapshots.py),
never the truth."""
from __future__ import annotations

from typing import Protocol


class Snapshots(Protocol):
    def snapshot_put(self, game_id: str, version: int, blob: bytes) -> None: ...

    def snapshot_get(self, game_id: str, at_most: int | None = None) -> tuple[int, bytes] | None:
        """The newest snapshot of the game at a version <= ``at_most`` (the newest of all when None)."""
        ...

    def snapshot_drop(self, game_id: str) -> int:
        """Delete the game's snapshots; how many there were."""
        ...
