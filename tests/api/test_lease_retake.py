"""Issue 39 item 4: leases are retaken by the machinery. A job left ``queued`` in no queue (the
worker that took it into RQ's intermediate queue was SIGKILLed before starting it) is found by the
dispatcher once its due lease runs out and dispatched again; a running job renews its lease
(workers/leases.py), and a job that stopped running stops renewing it. Real Redis (REDIS_URL), the
dispatcher's clock moved forward instead of waiting."""
from __future__ import annotations

from typing import Any

from service.eventstore.contract import FollowUp, shard_of
from service.settings import Settings
from service.wiring import build_store
from workers.dispatcher import Dispatcher, now_ms
from workers.leases import Renewals
from workers.main import make_queues

LEASE_MS = 2000


def _setup(redis_url: str, key_prefix: str) -> tuple[Any, dict[str, Any], list[int], Dispatcher]:
    settings = Settings(redis_url=redis_url, key_prefix=key_prefix, queue_name=key_prefix, rate_limits="off")
    store, queues, later = build_store(settings), make_queues(settings), [0]
    return store, queues, later, Dispatcher(store, queues, LEASE_MS, clock=lambda: now_ms() + later[0])


def test_a_job_queued_in_no_queue_is_dispatched_again(redis_url: str, key_prefix: str) -> None:
    store, queues, later, dispatcher = _setup(redis_url, key_prefix)
    game = "0a" + "1" * 14
    job_id = f"bot-{game}-1-7-{key_prefix}"
    store.schedule(FollowUp(job_id, 0, {"kind": "bot", "game": game, "seat": 1}))
    fast, conn = queues["fast"], queues["fast"].connection
    try:
        assert dispatcher.tick() == 1 and fast.job_ids == [job_id]
        # a worker takes it as RQ's workers do (LMOVE into the intermediate queue) and is SIGKILLed there
        assert conn.lmove(fast.key, fast.intermediate_queue_key) is not None
        assert fast.fetch_job(job_id).get_status() == "queued" and fast.job_ids == []
        later[0] = 3 * LEASE_MS  # its lease ran out, unrenewed
        assert dispatcher.tick() == 1, "the stranded job was not dispatched again"
        assert fast.job_ids == [job_id] and fast.fetch_job(job_id).get_status() == "queued"
        assert conn.lrange(fast.intermediate_queue_key, 0, -1) == []
        later[0] = 6 * LEASE_MS  # in its queue (a worker busy elsewhere): never taken from it
        assert dispatcher.tick() == 0 and fast.job_ids == [job_id]
    finally:
        for q in queues.values():
            q.delete(delete_jobs=True)
        conn.delete(fast.intermediate_queue_key)
        conn.srem("rq:queues", *[q.key for q in queues.values()])


def test_a_running_job_renews_its_lease_and_a_finished_one_does_not(redis_url: str, key_prefix: str) -> None:
    store, _queues, _later, _dispatcher = _setup(redis_url, key_prefix)
    game = "0b" + "2" * 14
    shard = shard_of(game)
    for n in (1, 2):
        store.schedule(FollowUp(f"bot-{game}-{n}", 0, {"kind": "bot", "game": game}))
    assert len(store.claim_due(shard, now_ms(), LEASE_MS)) == 2
    renewals = Renewals(store, lease_ms=60_000)
    with renewals.held(shard, f"bot-{game}-1"):
        assert renewals.renew() == 1
    assert renewals.renew() == 0  # it ended: nothing renews it
    later = now_ms() + 5 * LEASE_MS  # past the claim's lease, within the renewed one
    assert store.recover_expired(shard, later) == [f"bot-{game}-2"]
