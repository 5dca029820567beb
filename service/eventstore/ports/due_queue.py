"""The due queue port: the follow-ups (bot turns, scoring, deals, timers) each shard owes, due at
a time, claimed under a lease by the dispatcher (workers/dispatcher.py) and finished by the job."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from service.eventstore.contract import Claimed, FollowUp


class DueQueue(Protocol):
    def schedule(self, followup: FollowUp) -> None:
        """Add one follow-up outside an append (a known job id keeps its due time and payload)."""
        ...

    def claim_due(self, shard: str, now: int, lease_ms: int, limit: int = 100) -> list[Claimed]: ...

    def next_due(self, shard: str) -> int | None: ...

    def finish_due(self, shard: str, job_id: str) -> None: ...

    def extend_due(self, shard: str, job_ids: Sequence[str], until: int) -> None:
        """Extend the lease of claimed (in-flight) follow-ups to ``until``: work a dispatcher still
        holds (the fair search line, workers/fair.py) is not put back and claimed twice."""
        ...

    def recover_expired(self, shard: str, now: int) -> list[str]:
        """Put claimed follow-ups whose lease ran out back in the queue, due now; their ids."""
        ...

    def plan_next(self, shard: str, latest: int, ttl_ms: int) -> int | None:
        """The shard's earliest due time (None: nothing due), and, in the same atomic step, the
        dispatcher's next look at the shard recorded as the earlier of it and ``latest`` (ms), kept
        ``ttl_ms``: an append whose new follow-ups are all due at that look or later pushes no wake-up
        (the dispatcher finds them then)."""
        ...

    def wait_wake(self, shard: str, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for work added to the shard's queue since the last wake-up
        (an append with follow-ups, or ``schedule``); consumes the wake-up."""
        ...
