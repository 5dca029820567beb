"""The API keys port: the operator's keys (one record per key id: its name, quotas and the SHA-256
of its secret, never the secret) and each key's own list of tables (its lobby, newest first,
capped), kept outside every game (service/app/api_keys.py)."""
from __future__ import annotations

from typing import Protocol

from service.eventstore.versioned import Changed


class ApiKeys(Protocol):
    def apikey_create(self, key_id: str, record: bytes, *, cap: int, entry: bytes, keep: int) -> bool:
        """Store a new key's record and start its audit log with ``entry``: only if no key has this
        id and fewer than ``cap`` keys exist (0: no cap), else False (nothing written)."""
        ...

    def apikey_change(self, key_id: str, expect: int, record: bytes, entry: bytes, keep: int) -> Changed:
        """Replace a key's record if it is still at version ``expect`` (``ANY``: any), appending
        ``entry`` to its audit log (the last ``keep`` entries kept), in one call
        (service/eventstore/versioned.py). A key is never deleted: a revoked key stays, revoked."""
        ...

    def apikey_log(self, key_id: str, limit: int) -> list[bytes]:
        """The key's audit log, newest first (at most ``limit`` entries)."""
        ...

    def apikey_get(self, key_id: str) -> bytes | None:
        """The record of one key (a revoked key's too)."""
        ...

    def apikey_all(self) -> dict[str, bytes]:
        """Every key's record, by id (the operator's list; a few thousand at most)."""
        ...

    def key_game_add(self, key_id: str, game_id: str, at_ms: int, cap: int) -> None:
        """List a table in its key's lobby (score ``at_ms``); beyond ``cap`` tables the oldest go."""
        ...

    def key_games(self, key_id: str, before: tuple[int, str] | None, limit: int) -> list[tuple[int, str]]:
        """Up to ``limit`` of the key's tables as (at_ms, game id), newest first (ties by id),
        strictly after the cursor ``before`` (the last pair of the previous page)."""
        ...

    def key_game_drop(self, key_id: str, game_id: str) -> None:
        """Unlist a table from its key's lobby (one that went: expired or evicted)."""
        ...
