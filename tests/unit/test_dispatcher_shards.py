"""Issue 26: one failing shard (its cluster node away) never stops the dispatcher's other shards:
their due work is claimed, recovered and enqueued on every tick while that one keeps raising."""
from __future__ import annotations

from typing import Any

import redis.exceptions as rx

from service.eventstore.contract import SHARDS, FollowUp
from service.eventstore.memory import MemoryEventStore
from workers.dispatcher import Dispatcher

DOWN = SHARDS[3]


class OneShardDown(MemoryEventStore):
    """The memory store, but every due-set call on the shard ``DOWN`` raises, as redis-py does
    when that shard's primary is away."""

    def _check(self, shard: str) -> None:
        if shard == DOWN:
            raise rx.ConnectionError(f"shard {shard}: connection refused")

    def claim_due(self, shard: str, now: int, lease_ms: int, limit: int = 100) -> list:  # type: ignore[override]
        self._check(shard)
        return super().claim_due(shard, now, lease_ms, limit)

    def recover_expired(self, shard: str, now: int) -> list[str]:
        self._check(shard)
        return super().recover_expired(shard, now)

    def next_due(self, shard: str) -> int | None:
        self._check(shard)
        return super().next_due(shard)


class Queue:
    """What the dispatcher asks of an RQ queue: enqueue under a job id."""

    def __init__(self) -> None:
        self.ids: list[str] = []

    def enqueue_call(self, func: str, args: Any, job_id: str, **kw: Any) -> None:
        self.ids.append(job_id)


def test_a_failing_shard_never_stops_the_others() -> None:
    store, queue, now = OneShardDown(), Queue(), [1_000_000]
    for shard in SHARDS:
        game = shard + "0" * 15
        store.schedule(FollowUp(f"bot-{game}-1-5", 0, {"kind": "bot", "game": game}))
    d = Dispatcher(store, {"fast": queue, "search": queue}, lease_ms=1000, clock=lambda: now[0])
    assert d.tick() == len(SHARDS) - 1
    assert sorted(queue.ids) == sorted(f"bot-{s}{'0' * 15}-1-5" for s in SHARDS if s != DOWN)
    assert 0 <= d.seconds_to_next() <= 1.0  # the shard away is skipped there too
    # leases that ran out (a worker that died) come back on the live shards, the down one still raising
    now[0] += 5000
    queue.ids.clear()
    assert d.tick() == len(SHARDS) - 1 and len(queue.ids) == len(SHARDS) - 1
