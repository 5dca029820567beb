"""The leases port (service/eventstore/ports/leases.py) on every backend: bounded, renewable,
released, and expiring when their holder dies."""
from __future__ import annotations

import uuid
from typing import Any


class TestLeases:
    """``Leases``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_leases_are_bounded_renewable_released_and_expire(self, store: Any) -> None:
        name = store.lease_name("tok", uuid.uuid4().hex)
        assert store.lease_acquire(name, "a", 2, now_ms=1000, ttl_ms=30_000)
        assert store.lease_acquire(name, "b", 2, now_ms=1000, ttl_ms=30_000)
        assert not store.lease_acquire(name, "c", 2, now_ms=1000, ttl_ms=30_000)  # full
        assert store.lease_acquire(name, "a", 2, now_ms=2000, ttl_ms=30_000)  # a holder renews
        store.lease_release_many([(name, "b")])
        assert store.lease_acquire(name, "c", 2, now_ms=3000, ttl_ms=30_000)  # the freed slot
        store.lease_renew([(name, "a")], now_ms=20_000, ttl_ms=30_000)  # a lives on to 50 s, c dies at 33 s
        assert not store.lease_acquire(name, "d", 2, now_ms=32_000, ttl_ms=30_000)
        assert store.lease_acquire(name, "d", 2, now_ms=34_000, ttl_ms=30_000)  # c's lease ran out (a crash)
        assert not store.lease_acquire(name, "e", 2, now_ms=34_000, ttl_ms=30_000)
        store.lease_release_many([(name, "a"), (name, "d")])
        store.lease_release_many([(name, "never-held")])  # harmless
        assert store.lease_acquire(name, "e", 1, now_ms=35_000, ttl_ms=30_000)
        other = store.lease_name("addr", uuid.uuid4().hex)
        assert store.lease_acquire(other, "x", 5, now_ms=35_000, ttl_ms=30_000)
        store.lease_release_many([(name, "e"), (other, "x"), (other, "never-held")])
        assert store.lease_acquire(name, "f", 1, now_ms=36_000, ttl_ms=30_000)
        assert store.lease_acquire(other, "y", 1, now_ms=36_000, ttl_ms=30_000)
