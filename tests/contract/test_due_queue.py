"""The due queue port (service/eventstore/ports/due_queue.py) on every backend: follow-ups claimed
when due under a lease, finished, recovered, extended, scheduled outside an append, and the wake-ups."""
from __future__ import annotations

import threading
import time
from types import MappingProxyType
from typing import Any

from service.eventstore.contract import Claimed, FollowUp, shard_of
from tests.contract.helpers import append, evs, new_gid, run_in_thread


class TestDueQueue:
    """``DueQueue``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_followups_are_claimed_only_when_due_with_their_payload(self, store: Any) -> None:
        gid = new_gid("7")
        shard = shard_of(gid)
        fus = [
            FollowUp("late", 5000, {"kind": "timer", "seat": 2}),
            FollowUp("first", 1000, {"kind": "bot", "seat": 1, "v": 1}),
            FollowUp("second", 2000, MappingProxyType({"kind": "score", "round": 1})),
        ]
        assert append(store, gid, 0, evs(1, 1), followups=fus).ok
        assert store.next_due(shard) == 1000
        assert store.claim_due(shard, now=999, lease_ms=10_000) == []

        claimed = store.claim_due(shard, now=2000, lease_ms=10_000)
        assert claimed == [
            Claimed("first", {"kind": "bot", "seat": 1, "v": 1}),
            Claimed("second", {"kind": "score", "round": 1}),
        ]
        # claimed work is not handed out twice
        assert store.claim_due(shard, now=2000, lease_ms=10_000) == []
        assert store.claim_due(shard, now=4999, lease_ms=10_000) == []
        assert store.next_due(shard) == 5000
        assert store.claim_due(shard, now=5000, lease_ms=10_000) == [Claimed("late", {"kind": "timer", "seat": 2})]
        assert store.next_due(shard) is None
        assert store.claim_due(shard, now=10**15, lease_ms=10_000) == []

    def test_claim_due_respects_limit(self, store: Any) -> None:
        gid = new_gid("2")
        shard = shard_of(gid)
        fus = [FollowUp(f"job-{i}", 100 + i, {"i": i}) for i in range(5)]
        assert append(store, gid, 0, evs(1, 1), followups=fus).ok
        got1 = store.claim_due(shard, now=1000, lease_ms=1000, limit=2)
        got2 = store.claim_due(shard, now=1000, lease_ms=1000, limit=10)
        assert [c.job_id for c in got1] == ["job-0", "job-1"]
        assert [c.job_id for c in got2] == ["job-2", "job-3", "job-4"]
        assert [c.payload for c in got1 + got2] == [{"i": i} for i in range(5)]

    def test_followups_are_per_shard(self, store: Any) -> None:
        a, b = new_gid("4"), new_gid("5")
        assert append(store, a, 0, evs(1, 1), followups=[FollowUp("job-a", 10, {"g": "a"})]).ok
        assert append(store, b, 0, evs(1, 1), followups=[FollowUp("job-b", 20, {"g": "b"})]).ok
        assert store.next_due("4") == 10
        assert store.next_due("5") == 20
        assert store.next_due("6") is None
        assert store.claim_due("6", now=10**15, lease_ms=1) == []
        assert store.claim_due("5", now=10**15, lease_ms=1) == [Claimed("job-b", {"g": "b"})]
        assert store.next_due("4") == 10

    def test_finish_due_removes_the_job_for_good(self, store: Any) -> None:
        gid = new_gid("8")
        shard = shard_of(gid)
        assert append(store, gid, 0, evs(1, 1), followups=[FollowUp("job", 100, {"a": 1})]).ok
        assert [c.job_id for c in store.claim_due(shard, now=100, lease_ms=50)] == ["job"]
        store.finish_due(shard, "job")
        assert store.recover_expired(shard, now=10**15) == []
        assert store.claim_due(shard, now=10**15, lease_ms=50) == []
        assert store.next_due(shard) is None
        store.finish_due(shard, "job")  # finishing twice is harmless
        store.finish_due(shard, "never-existed")

    def test_recover_expired_puts_back_leases_that_ran_out(self, store: Any) -> None:
        gid = new_gid("9")
        shard = shard_of(gid)
        fus = [FollowUp("short", 100, {"n": 1}), FollowUp("long", 100, {"n": 2})]
        assert append(store, gid, 0, evs(1, 1), followups=fus).ok
        assert sorted(c.job_id for c in store.claim_due(shard, now=1000, lease_ms=500, limit=1)) == ["long"]
        assert [c.job_id for c in store.claim_due(shard, now=1200, lease_ms=5000)] == ["short"]
        # "long" leased until 1500, "short" until 6200
        assert store.recover_expired(shard, now=1499) == []
        assert store.next_due(shard) is None
        assert store.recover_expired(shard, now=1500) == ["long"]
        assert store.recover_expired(shard, now=1500) == []
        assert store.next_due(shard) == 1500
        # the recovered job is handed out again, payload intact
        assert store.claim_due(shard, now=1500, lease_ms=500) == [Claimed("long", {"n": 2})]
        assert sorted(store.recover_expired(shard, now=10_000)) == ["long", "short"]
        assert store.claim_due(shard, now=10_000, lease_ms=500) == [
            Claimed("long", {"n": 2}),
            Claimed("short", {"n": 1}),
        ]

    def test_a_job_added_again_while_it_ran_keeps_its_payload_when_the_first_run_finishes(self, store: Any) -> None:
        gid = new_gid("e")
        shard = shard_of(gid)
        assert append(store, gid, 0, evs(1, 1), followups=[FollowUp("timer-x", 100, {"v": 1})]).ok
        assert [c.job_id for c in store.claim_due(shard, now=100, lease_ms=1000)] == ["timer-x"]
        # while it runs, its own append calls for the same job again (a timer re-armed)
        assert append(store, gid, 1, evs(2, 1), followups=[FollowUp("timer-x", 500, {"v": 2})]).ok
        store.finish_due(shard, "timer-x")
        assert store.claim_due(shard, now=500, lease_ms=1000) == [Claimed("timer-x", {"v": 2})]
        store.finish_due(shard, "timer-x")
        assert store.claim_due(shard, now=10_000, lease_ms=1000) == []

    def test_readding_a_known_job_id_keeps_its_due_time_and_payload(self, store: Any) -> None:
        gid = new_gid("d")
        shard = shard_of(gid)
        assert append(store, gid, 0, evs(1, 1), followups=[FollowUp("bot-x", 5000, {"v": 1})]).ok
        # the same deterministic job id, earlier and with another payload (ZADD NX)
        assert append(store, gid, 1, evs(2, 1), followups=[FollowUp("bot-x", 1000, {"v": 2})]).ok
        assert store.next_due(shard) == 5000
        assert store.claim_due(shard, now=4999, lease_ms=100) == []
        assert store.claim_due(shard, now=5000, lease_ms=100) == [Claimed("bot-x", {"v": 1})]
        assert store.claim_due(shard, now=10**15, lease_ms=100) == []

    def test_same_job_id_twice_in_one_append_keeps_the_first(self, store: Any) -> None:
        gid = new_gid("e")
        shard = shard_of(gid)
        fus = [FollowUp("dup", 300, {"v": "first"}), FollowUp("dup", 100, {"v": "second"})]
        assert append(store, gid, 0, evs(1, 1), followups=fus).ok
        assert store.next_due(shard) == 300
        assert store.claim_due(shard, now=10**15, lease_ms=1) == [Claimed("dup", {"v": "first"})]

    def test_schedule_adds_a_followup_outside_an_append_with_nx_semantics(self, store: Any) -> None:
        gid = new_gid("6")
        shard = shard_of(gid)
        assert append(store, gid, 0, evs(1, 1), followups=[FollowUp("known", 900, {"game": gid, "v": 1})]).ok
        store.schedule(FollowUp("deferred", 700, MappingProxyType({"game": gid, "seat": 3})))
        store.schedule(FollowUp("known", 100, {"game": gid, "v": 2}))  # already due: unchanged
        store.schedule(FollowUp("deferred", 50, {"game": gid, "seat": 9}))  # likewise
        assert store.version(gid) == 1  # scheduling writes no event
        assert store.next_due(shard) == 700
        assert store.claim_due(shard, now=699, lease_ms=10) == []
        assert store.claim_due(shard, now=900, lease_ms=10) == [
            Claimed("deferred", {"game": gid, "seat": 3}),
            Claimed("known", {"game": gid, "v": 1}),
        ]

    def test_extend_due_keeps_claimed_work_from_being_recovered_until_the_new_time(self, store: Any) -> None:
        gid = new_gid("b")
        shard = shard_of(gid)
        fus = [FollowUp("held", 100, {"n": 1}), FollowUp("let-go", 100, {"n": 2})]
        assert append(store, gid, 0, evs(1, 1), followups=fus).ok
        assert sorted(c.job_id for c in store.claim_due(shard, now=100, lease_ms=1000)) == ["held", "let-go"]
        store.extend_due(shard, ["held", "never-claimed"], until=5000)
        store.extend_due(shard, [], until=9000)  # nothing to extend: harmless
        assert store.recover_expired(shard, now=1100) == ["let-go"]
        assert store.recover_expired(shard, now=4999) == []
        assert store.recover_expired(shard, now=5000) == ["held"]
        assert store.claim_due(shard, now=5000, lease_ms=10) == [Claimed("let-go", {"n": 2}), Claimed("held", {"n": 1})]

    def test_work_added_to_a_shard_wakes_its_waiter_once(self, store: Any) -> None:
        gid = new_gid("c")
        shard = shard_of(gid)
        store.wait_wake(shard, 0.01)  # (a wake-up left by another test of a shared store: consumed)
        assert append(store, gid, 0, evs(1, 1)).ok  # no follow-up: no wake-up
        assert store.wait_wake(shard, 0.05) is False
        assert append(store, gid, 1, evs(2, 1), followups=[FollowUp("w1", 10, {"game": gid})]).ok
        assert append(store, gid, 2, evs(3, 1), followups=[FollowUp("w2", 10, {"game": gid})]).ok
        assert store.wait_wake(shard, 1.0) is True
        assert store.wait_wake(shard, 0.05) is False  # two appends, one wake-up: consumed
        assert store.wait_wake("d" if shard != "d" else "e", 0.01) is False  # another shard's waiter
        store.schedule(FollowUp("w3", 10, {"game": gid}))
        assert store.wait_wake(shard, 1.0) is True

    def test_a_followup_due_after_the_planned_look_pushes_no_wake_up(self, store: Any) -> None:
        """Issue 39: the dispatcher plans its next look at a shard; work due later wakes nobody."""
        gid = new_gid("5")
        shard = shard_of(gid)
        store.wait_wake(shard, 0.01)
        assert store.plan_next(shard, 5000, 60_000) is None
        assert append(store, gid, 0, evs(1, 1), followups=[FollowUp("later", 45_000, {"game": gid})]).ok
        assert store.wait_wake(shard, 0.05) is False  # due after the planned look: it finds it then
        assert append(store, gid, 1, evs(2, 1), followups=[FollowUp("sooner", 4000, {"game": gid})]).ok
        assert store.wait_wake(shard, 1.0) is True  # due before it: woken
        assert store.plan_next(shard, 5000, 60_000) == 4000  # the next look: at 4000
        assert append(store, gid, 2, evs(3, 1), followups=[FollowUp("between", 4500, {"game": gid})]).ok
        assert store.wait_wake(shard, 0.05) is False
        assert append(store, gid, 3, evs(4, 1), followups=[FollowUp("first", 3000, {"game": gid})]).ok
        assert store.wait_wake(shard, 1.0) is True

    def test_an_append_cancels_the_due_work_it_closed(self, store: Any) -> None:
        """Issue 39: the append that ends a turn takes its timer out of the due set; a claimed one
        (running) keeps its lease and is finished by its job."""
        gid = new_gid("6")
        shard = shard_of(gid)
        fus = [FollowUp("timer-a", 45_000, {"game": gid}), FollowUp("timer-b", 1000, {"game": gid})]
        assert append(store, gid, 0, evs(1, 1), followups=fus).ok
        assert [c.job_id for c in store.claim_due(shard, now=1000, lease_ms=10_000)] == ["timer-b"]
        assert append(store, gid, 1, evs(2, 1), cancel=["timer-a", "timer-b", "unknown"]).ok
        assert store.next_due(shard) is None
        assert store.claim_due(shard, now=10**15, lease_ms=10) == []
        assert store.recover_expired(shard, now=11_000) == ["timer-b"]  # the running one kept its lease

    def test_a_waiter_wakes_when_another_thread_adds_work(self, store: Any) -> None:
        gid = new_gid("1")
        shard = shard_of(gid)
        store.wait_wake(shard, 0.01)

        def later() -> None:
            time.sleep(0.3)
            append(store, gid, 0, evs(1, 1), followups=[FollowUp("w", 10, {"game": gid})])

        t = threading.Thread(target=later, daemon=True)
        t.start()
        started = time.monotonic()
        done, result = run_in_thread(lambda: store.wait_wake(shard, 15))
        t.join(20)
        assert done and result is True
        assert time.monotonic() - started < 14  # woke on the append, not at the timeout
