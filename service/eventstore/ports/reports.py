"""The reports port: a finished game's verify report (service/app/verify_cache.py), a cache kept
as long as the game, through compaction, and deleted with it."""
from __future__ import annotations

from typing import Protocol


class Reports(Protocol):
    def report_get(self, game_id: str) -> bytes | None: ...

    def report_put(self, game_id: str, blob: bytes) -> bool:
        """Keep ``blob`` as the game's report if the game exists (stream or compact form)."""
        ...
