"""Issue 39 item 2: the dispatcher waits on work. It visits every shard once a second (the sweep);
between sweeps only a shard an append woke or whose kept next due time has come; it sleeps until the
earliest of those; and an append whose work is due after its planned look pushes no wake-up."""
from __future__ import annotations

from collections import Counter
from typing import Any

from service.eventstore.contract import SHARDS, AppendRequest, FollowUp
from service.eventstore.memory import MemoryEventStore
from tests.contract.helpers import evs
from workers.dispatcher import SWEEP_MS, Dispatcher


class Counting(MemoryEventStore):
    """The memory store, counting the due-set calls per shard."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: Counter[str] = Counter()

    def claim_due(self, shard: str, now: int, lease_ms: int, limit: int = 100) -> list:  # type: ignore[override]
        self.calls[shard] += 1
        return super().claim_due(shard, now, lease_ms, limit)

    def recover_expired(self, shard: str, now: int) -> list[str]:
        self.calls[shard] += 1
        return super().recover_expired(shard, now)


class Queue:
    def __init__(self) -> None:
        self.ids: list[str] = []

    def enqueue_call(self, func: str, args: Any, job_id: str, **kw: Any) -> None:
        self.ids.append(job_id)


def test_between_sweeps_only_woken_or_due_shards_are_visited() -> None:
    store, queue, now = Counting(), Queue(), [1_000_000]
    d = Dispatcher(store, {"fast": queue}, lease_ms=10_000, clock=lambda: now[0])
    d.tick()
    assert set(store.calls) == set(SHARDS)  # the first tick sweeps every shard
    assert d.seconds_to_next() == SWEEP_MS / 1000  # nothing due: sleep until the next sweep
    gid = "a" + "0" * 15
    store.append(AppendRequest(gid, 0, evs(1, 1), followups=[FollowUp(f"bot-{gid}-1-1", now[0] + 300, {"game": gid})]))
    assert store.wait_wake("a", 0)  # due before the planned look (the sweep): the append woke the shard
    d.woken("a")
    store.calls.clear()
    now[0] += 10
    assert d.tick() == 0 and set(store.calls) == {"a"}  # only the woken shard
    assert abs(d.seconds_to_next() - 0.29) < 1e-9  # sleeps until that bot's due time, not a second
    store.calls.clear()
    now[0] += 290
    assert d.tick() == 1 and queue.ids == [f"bot-{gid}-1-1"] and set(store.calls) == {"a"}
    store.finish_due("a", f"bot-{gid}-1-1")  # (its job ran)
    later = "b" + "0" * 15
    store.append(AppendRequest(later, 0, evs(1, 1), followups=[FollowUp(f"timer-{later}-t", now[0] + 45_000,
                                                                         {"game": later})]))
    assert not store.wait_wake("b", 0)  # a timer due in 45 s: no wake-up; the sweep finds it later
    store.calls.clear()
    now[0] += 100
    assert d.tick() == 0 and not store.calls  # nothing woken, nothing due: no shard visited
    now[0] += SWEEP_MS
    assert d.tick() == 0 and set(store.calls) == set(SHARDS)
    now[0] += 45_000
    assert d.tick() == 1 and queue.ids[-1] == f"timer-{later}-t"


def test_a_bots_only_turn_runs_off_rq_and_a_human_table_s_goes_to_rq() -> None:
    """Item 3: a bot's turn marked bots-only runs on the dispatcher's own thread (its lease held and
    released there), never as an RQ job; any other goes to RQ."""
    import threading

    store, queue, now = MemoryEventStore(), Queue(), [1_000_000]
    ran: list[str] = []
    done = threading.Event()

    def inline(payload: dict, shard: str, job_id: str) -> str:
        ran.append(job_id)
        store.finish_due(shard, job_id)
        done.set()
        return "moved"

    d = Dispatcher(store, {"fast": queue}, lease_ms=10_000, clock=lambda: now[0], inline=inline)
    alone, mixed = "c" + "0" * 15, "d" + "0" * 15
    store.schedule(FollowUp(f"bot-{alone}-1-1", 0, {"kind": "bot", "game": alone, "bots_only": True}))
    store.schedule(FollowUp(f"bot-{mixed}-1-1", 0, {"kind": "bot", "game": mixed}))
    assert d.tick() == 2
    assert done.wait(10)
    assert ran == [f"bot-{alone}-1-1"] and queue.ids == [f"bot-{mixed}-1-1"]
    now[0] += 20_000  # the inline turn's lease was released: nothing comes back but the RQ job's
    assert d.tick() == 1 and queue.ids == [f"bot-{mixed}-1-1"] * 2 and ran == [f"bot-{alone}-1-1"]
