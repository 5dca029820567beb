"""The leases port: bounded sets of expiring leases (one per open stream, per token and per
address: service/app/stream_slots.py; a bot's search share: service/app/fairness.py)."""
from __future__ import annotations

from typing import Protocol


class Leases(Protocol):
    def lease_name(self, kind: str, ident: str) -> str: ...

    def lease_acquire(self, name: str, member: str, limit: int, now_ms: int, ttl_ms: int) -> bool:
        """Hold (or renew) ``member``'s lease in ``name`` unless ``limit`` others hold one."""
        ...

    def lease_renew(self, held: list[tuple[str, str]], now_ms: int, ttl_ms: int) -> None: ...

    def lease_release_many(self, held: list[tuple[str, str]]) -> None: ...
