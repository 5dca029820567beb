"""The webhooks port: each API key's webhook endpoints (capped), their health counters, and its
delivery log (bounded: the oldest deliveries go), all kept outside every game and under the key's
own hash tag (service/app/webhooks.py, service/app/webhook_jobs.py)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from service.eventstore.versioned import Changed


class Webhooks(Protocol):
    def hook_create(self, owner: str, hook_id: str, record: bytes, *, cap: int, entry: bytes, keep: int) -> bool:
        """Store a new endpoint's record and start its audit log with ``entry``: only if the owner
        has no endpoint of this id and fewer than ``cap`` endpoints (0: no cap), else False."""
        ...

    def hook_change(self, owner: str, hook_id: str, expect: int, record: bytes | None, entry: bytes, keep: int,
                    health: Mapping[str, int] | None = None) -> Changed:
        """Replace (``record``, setting the ``health`` counters given, 0 removing one) or delete
        (None: with its health) an endpoint still at version ``expect`` (``ANY``: any), appending
        ``entry`` to its audit log, in one call (service/eventstore/versioned.py). A deleted
        endpoint never comes back; its log is kept ``LOG_TTL_S``."""
        ...

    def hook_log(self, owner: str, hook_id: str, limit: int) -> list[bytes]:
        """An endpoint's audit log (a deleted one's too, while kept), newest first."""
        ...

    def hook_get(self, owner: str, hook_id: str) -> bytes | None: ...

    def hook_all(self, owner: str) -> dict[str, bytes]:
        """The owner's endpoints' records, by id (at most its cap)."""
        ...

    def hook_health(self, owner: str, hook_id: str) -> dict[str, int]:
        """An endpoint's health counters (absent counters are absent)."""
        ...

    def hook_health_add(self, owner: str, hook_id: str, name: str, by: int) -> int:
        """Add ``by`` to one health counter atomically; its new value."""
        ...

    def hook_health_set(self, owner: str, hook_id: str, values: Mapping[str, int]) -> None:
        """Set health counters (a value of 0 removes the counter)."""
        ...

    def delivery_add(self, owner: str, delivery_id: str, record: bytes, *, keep: int) -> int:
        """Log a new delivery (newest of the owner's log) unless one of this id is logged; beyond
        ``keep`` deliveries the oldest go. Its position in the log (> 0), or 0 when it was logged."""
        ...

    def delivery_get(self, owner: str, delivery_id: str) -> bytes | None: ...

    def delivery_put(self, owner: str, delivery_id: str, record: bytes) -> bool:
        """Replace a logged delivery's record (False when it is not logged, or no more)."""
        ...

    def delivery_page(self, owner: str, before: int | None, limit: int) -> list[tuple[int, bytes]]:
        """Up to ``limit`` deliveries as (position, record), newest first, before position ``before``."""
        ...
