"""The bot records port: registered remote bots (service/app/remote_bots.py), each under the API key
that owns it, capped per key, and each bot's counters (calls, failures, consecutive failures, away).
Store-side records: never part of a game's stream; the secret inside a record never leaves the
service but in the answer that creates or rotates it."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from service.eventstore.versioned import Changed


class BotRecords(Protocol):
    def bot_create(self, owner: str, bot_id: str, record: bytes, cap: int, entry: bytes, keep: int) -> bool:
        """Write a new bot's record under ``owner`` and start its audit log with ``entry``; False
        (nothing written) when the id is taken or ``owner`` already has ``cap`` bots."""
        ...

    def bot_change(self, owner: str, bot_id: str, expect: int, record: bytes | None, entry: bytes,
                   keep: int) -> Changed:
        """Replace (``record``) or delete (None: with its counters) ``owner``'s bot if it is still at
        version ``expect`` (``ANY``: any), appending ``entry`` to its audit log, in one call
        (service/eventstore/versioned.py). MISSING for another owner's bot, or one deleted: a
        deleted bot never comes back. A deleted bot's log is kept ``LOG_TTL_S``."""
        ...

    def bot_log(self, owner: str, bot_id: str, limit: int) -> list[bytes]:
        """The audit log of ``owner``'s bot (deleted ones too, while kept), newest first."""
        ...

    def bot_load(self, bot_id: str) -> bytes | None: ...

    def bot_ids(self, owner: str) -> list[str]:
        """The ids of ``owner``'s bots, sorted."""
        ...

    def bot_count(self, bot_id: str, deltas: Mapping[str, int], reset: Mapping[str, int] | None = None) -> dict[str, int]:
        """Add ``deltas`` to the bot's counters and set those in ``reset``, at once; every counter after."""
        ...

    def bot_counts(self, bot_id: str) -> dict[str, int]: ...
