"""The matchmaking port: per scope (an API key's id, or "public") and variant, the one open table
quick play seats its callers at (service/app/quickplay.py), replaced only by compare-and-set."""
from __future__ import annotations

from typing import Protocol


class Matchmaking(Protocol):
    def quick_get(self, scope: str, variant: str) -> str | None:
        """The game id quick play fills now, if any (it lapses ``ttl_ms`` after it was set)."""
        ...

    def quick_swap(self, scope: str, variant: str, old: str | None, new: str, ttl_ms: int) -> str:
        """Set ``new`` if the current one is still ``old`` (None: none); the current one after, either way."""
        ...
