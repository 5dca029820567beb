"""The append feed port: each shard's notifications (game id, new version) of the appends to it,
read by every API process's live-feed hub (service/app/feeds.py)."""
from __future__ import annotations

from typing import Protocol


class AppendFeed(Protocol):
    def feed_head(self, shard: str) -> str:
        """The id of the newest notification of a shard's feed ("0-0" when empty)."""
        ...

    def feed_read(self, shard: str, after_id: str, block_ms: int, count: int = 512) -> tuple[str, list[tuple[str, int]]]:
        """Notifications after ``after_id`` as (game id, version), blocking up to ``block_ms``."""
        ...
