"""What the benchmarks that drive the application in-process share: a test clock and the
follow-up drain a worker would do (scoring, deals, bot turns due by then)."""
from __future__ import annotations

from typing import Any

from service.eventstore.contract import SHARDS


class Clock:
    """Milliseconds that move 5 ms on every read (and jump when a benchmark sets ``now``)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000_000

    def __call__(self) -> int:
        self.now += 5
        return self.now


def drain(svc: Any, now: int) -> None:
    """Run every follow-up due by ``now`` in this process, as a worker would."""
    store = svc.store
    while True:
        batch = [(s, c) for s in SHARDS for c in store.claim_due(s, now, 60_000)]
        if not batch:
            return
        for shard, claimed in batch:
            try:
                svc.run_followup(dict(claimed.payload))
            finally:
                store.finish_due(shard, claimed.job_id)
