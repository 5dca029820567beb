"""The bot records port: registered remote bots (service/app/remote_bots.py), each under the API key
that owns it, capped per key, and each bot's counters (calls, failures, consecutive failures, away).
Store-side records: never part of a game's stream; the secret inside a record never leaves the
service but in the answer that creates or rotates it."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


class BotRecords(Protocol):
    def bot_save(self, owner: str, bot_id: str, record: bytes, cap: int) -> bool:
        """Write ``bot_id``'s record under ``owner``; False (nothing written) for a new bot when
        ``owner`` already has ``cap`` bots."""
        ...

    def bot_load(self, bot_id: str) -> bytes | None: ...

    def bot_ids(self, owner: str) -> list[str]:
        """The ids of ``owner``'s bots, sorted."""
        ...

    def bot_drop(self, owner: str, bot_id: str) -> bool:
        """Delete ``owner``'s bot with its counters; False when ``owner`` has no such bot."""
        ...

    def bot_count(self, bot_id: str, deltas: Mapping[str, int], reset: Mapping[str, int] | None = None) -> dict[str, int]:
        """Add ``deltas`` to the bot's counters and set those in ``reset``, at once; every counter after."""
        ...

    def bot_counts(self, bot_id: str) -> dict[str, int]: ...
