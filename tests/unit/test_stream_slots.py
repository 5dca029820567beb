"""Stream caps (service/app/stream_slots.py) on the in-memory store behind a fake that can fail.

A closed stream's slot is free when ``release`` returns; a lease is taken whole or not at all;
a release that fails (Redis away) is retried until it succeeds.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any

import pytest

from service.app.errors import AppError
from service.app.stream_slots import StreamSlots
from service.eventstore.memory import MemoryEventStore


class FlakyLeases:
    """The in-memory store's lease port, told to fail: ``down`` holds the lease kinds ("tok",
    "addr") whose sets raise on acquire (``after_write``: raise once the slot is taken, as a
    timed-out call may); ``releases_fail`` makes every release raise; ``releases_down`` holds the
    kinds whose node is away for releases: a call that names one of their sets raises and removes
    nothing (a cluster pipeline that cannot reach one node sends nothing); ``gate`` holds releases."""

    def __init__(self) -> None:
        self.inner = MemoryEventStore()
        self.down: set[str] = set()
        self.after_write = False
        self.releases_fail = False
        self.releases_down: set[str] = set()
        self.gate = threading.Event()
        self.gate.set()
        self.release_calls = 0

    def lease_name(self, kind: str, ident: str) -> str:
        return self.inner.lease_name(kind, ident)

    def lease_acquire(self, name: str, member: str, limit: int, now_ms: int, ttl_ms: int) -> bool:
        kind = name.split(":")[1]
        if kind in self.down and not self.after_write:
            raise ConnectionError(f"the {kind} set's node is down")
        got = self.inner.lease_acquire(name, member, limit, now_ms, ttl_ms)
        if kind in self.down:
            raise ConnectionError(f"the {kind} set's node went away after the write")
        return got

    def lease_renew(self, held: list[tuple[str, str]], now_ms: int, ttl_ms: int) -> None:
        self.inner.lease_renew(held, now_ms, ttl_ms)

    def lease_release_many(self, held: list[tuple[str, str]]) -> None:
        assert self.gate.wait(30), "a release was held for 30 s"
        self.release_calls += 1
        if self.releases_fail or any(name.split(":")[1] in self.releases_down for name, _ in held):
            raise ConnectionError("redis is away")
        self.inner.lease_release_many(held)

    def holders(self, kind: str, ident: str) -> int:
        """How many streams hold a slot in that set: the smallest limit a probe fits under, less one."""
        name = self.inner.lease_name(kind, ident)
        for limit in range(1, 1000):
            if self.inner.lease_acquire(name, "probe", limit, int(time.time() * 1000), 60_000):
                self.inner.lease_release_many([(name, "probe")])
                return limit - 1
        raise AssertionError("1000 holders or more")


def _slots(store: Any, **kw: Any) -> StreamSlots:
    return StreamSlots(store, per_token=kw.pop("per_token", 1), per_address=kw.pop("per_address", 1), **kw)


def _eventually(pred: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.01)


def test_close_then_reopen_at_once_is_never_refused() -> None:
    slots = _slots(MemoryEventStore())
    for _i in range(300):
        lease = slots.acquire("tok-a", "192.0.2.1")  # raises 429 if the last one's slot were still held
        slots.release(lease)
    assert slots.held() == 0 and slots.pending() == 0


def test_the_cap_still_holds_while_a_stream_is_open() -> None:
    slots = _slots(MemoryEventStore())
    lease = slots.acquire("tok-a", "192.0.2.1")
    with pytest.raises(AppError) as refused:
        slots.acquire("tok-a", "192.0.2.2")
    assert refused.value.code == "rate_limited"
    slots.release(lease)
    slots.release(lease)  # a second release of the same lease does nothing
    slots.release(slots.acquire("tok-a", "192.0.2.2"))


def test_many_clients_closing_and_reopening_at_once_are_never_refused() -> None:
    """Eight clients with a cap of one each, closing and reopening in a loop on eight threads:
    releases that meet on the way to the store share a call, and none is refused."""
    slots = _slots(MemoryEventStore(), per_address=100)
    errors: list[BaseException] = []

    def client(n: int) -> None:
        try:
            for _ in range(100):
                slots.release(slots.acquire(f"tok-{n}", "192.0.2.1"))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors and slots.held() == 0


def test_releases_that_wait_for_a_call_in_flight_are_free_when_they_return() -> None:
    store = FlakyLeases()
    slots = _slots(store, per_address=100)
    leases = [slots.acquire(f"tok-{n}", "192.0.2.1") for n in range(5)]
    store.gate.clear()  # the first release's call hangs in the store
    returned: list[int] = []
    threads = [threading.Thread(target=lambda n=n: (slots.release(leases[n]), returned.append(n))) for n in range(5)]
    threads[0].start()
    _eventually(lambda: slots._sending)
    for t in threads[1:]:
        t.start()
    _eventually(lambda: slots._open is not None and len(slots._open.pairs) == 8)  # four more, two sets each
    assert returned == []  # nobody returns before its slots are back
    store.gate.set()
    for t in threads:
        t.join(30)
    assert sorted(returned) == list(range(5))
    assert store.release_calls == 2  # the four that met while the first was in flight went together
    assert store.holders("addr", "192.0.2.1") == 0
    for n in range(5):
        slots.release(slots.acquire(f"tok-{n}", "192.0.2.1"))


@pytest.mark.parametrize("after_write", [False, True], ids=["refused-write", "written-then-lost"])
def test_a_lease_half_taken_when_the_second_set_fails_is_given_back(after_write: bool) -> None:
    store = FlakyLeases()
    slots = _slots(store)
    store.down, store.after_write = {"addr"}, after_write
    with pytest.raises(ConnectionError):
        slots.acquire("tok-a", "192.0.2.1")
    assert (store.holders("tok", "tok-a"), store.holders("addr", "192.0.2.1")) == (0, 0)
    assert slots.held() == 0
    store.down = set()
    slots.release(slots.acquire("tok-a", "192.0.2.1"))  # the token's one slot was free


def test_a_lease_refused_by_the_second_set_gives_the_first_back() -> None:
    store = FlakyLeases()
    slots = _slots(store, per_token=5)
    held = slots.acquire("tok-a", "192.0.2.1")
    with pytest.raises(AppError) as refused:
        slots.acquire("tok-a", "192.0.2.1")  # the token has room, the address not
    assert refused.value.code == "rate_limited" and "client address" in refused.value.detail
    assert store.holders("tok", "tok-a") == 1
    slots.release(held)


def test_a_failed_release_is_retried_until_it_frees_the_slot() -> None:
    store = FlakyLeases()
    slots = _slots(store, retry_s=3600)  # the upkeep thread stays out of the way: retried by hand
    lease = slots.acquire("tok-a", "192.0.2.1")
    store.releases_fail = True
    slots.release(lease)  # never raises: the close goes on
    assert slots.pending() == 2 and store.holders("tok", "tok-a") == 1
    assert not slots.retry_releases()  # still away: kept
    assert slots.pending() == 2
    store.releases_fail = False
    assert slots.retry_releases()
    assert slots.pending() == 0 and store.holders("tok", "tok-a") == 0
    slots.release(slots.acquire("tok-a", "192.0.2.1"))


def test_the_upkeep_thread_retries_a_failed_release_by_itself() -> None:
    store = FlakyLeases()
    slots = _slots(store, retry_s=0.05)
    lease = slots.acquire("tok-a", "192.0.2.1")
    store.releases_fail = True
    slots.release(lease)
    _eventually(lambda: store.release_calls >= 3)  # it keeps trying while Redis is away
    assert store.holders("tok", "tok-a") == 1
    store.releases_fail = False
    _eventually(lambda: slots.pending() == 0)
    assert store.holders("tok", "tok-a") == 0
    slots.release(slots.acquire("tok-a", "192.0.2.1"))


def test_a_half_taken_lease_whose_give_back_fails_is_retried() -> None:
    store = FlakyLeases()
    slots = _slots(store, retry_s=3600)
    store.down, store.releases_fail = {"addr"}, True
    with pytest.raises(ConnectionError):
        slots.acquire("tok-a", "192.0.2.1")
    assert store.holders("tok", "tok-a") == 1 and slots.pending() == 2
    store.down, store.releases_fail = set(), False
    assert slots.retry_releases() and store.holders("tok", "tok-a") == 0


def test_the_retry_queue_is_bounded_and_drops_the_oldest_with_a_log_line(caplog: pytest.LogCaptureFixture) -> None:
    store = FlakyLeases()
    slots = _slots(store, per_token=10, per_address=10, retry_cap=4, upkeep=False)  # no retry meanwhile
    leases = [slots.acquire("tok-a", "192.0.2.1") for _ in range(3)]
    store.releases_fail = True
    with caplog.at_level(logging.WARNING, logger="meow.streams"):
        for lease in leases:
            slots.release(lease)
    assert slots.pending() == 4  # six pairs failed; the two oldest (the first lease's) dropped
    assert any("dropped the 2 oldest" in r.getMessage() for r in caplog.records)
    store.releases_fail = False
    assert slots.retry_releases()
    assert store.holders("tok", "tok-a") == 1  # the first lease's slot: left to run out by its TTL


def test_a_node_away_holds_back_only_its_own_sets_releases() -> None:
    """The address's set on a node that is away (a cluster's failover), the token's on a live one:
    each failed stream attempt gives its token slot back at once, so a client retrying through the
    outage is answered 503 (the store), never refused 429 by its own failed attempts; the address's
    releases wait for the node and go once it is back."""
    store = FlakyLeases()
    slots = _slots(store, per_token=2, per_address=100, upkeep=False)  # retried by hand below
    store.down = {"addr"}
    store.after_write = True  # the address's slot is taken, then the call fails: a release is owed
    store.releases_down = {"addr"}
    for _ in range(10):
        with pytest.raises(ConnectionError):
            slots.acquire("tok-a", "192.0.2.1")
    assert store.holders("tok", "tok-a") == 0
    assert slots.pending() > 0  # the address's releases, waiting for its node
    assert not slots.retry_releases()  # the node is still away: they wait
    store.down, store.releases_down = set(), set()
    assert slots.retry_releases() and slots.pending() == 0
    assert store.holders("addr", "192.0.2.1") == 0
