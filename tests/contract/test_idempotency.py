"""The idempotency port (service/eventstore/ports/idempotency.py) on every backend: a key's first
answer is kept, a retry under it writes nothing, records are per game and expire."""
from __future__ import annotations

from typing import Any

import pytest

from service.eventstore.contract import AppendResult, FollowUp, IdemWrite, shard_of
from tests.contract.backends import REDIS_BACKENDS
from tests.contract.helpers import append, evs, new_gid


class TestIdempotencyRecords:
    """``IdempotencyRecords``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_idempotency_key_second_time_is_duplicate_and_writes_nothing(self, store: Any) -> None:
        gid = new_gid("c")
        shard = shard_of(gid)
        first = append(store, gid, 0, evs(1, 2), idem=IdemWrite("req-1", b"first-record"), lobby=b"L1")
        assert first == AppendResult("ok", 2)
        assert store.idem_get(gid, "req-1") == b"first-record"

        # same key, same expected version (a plain retry)
        again = append(
            store, gid, 0, evs(1, 2),
            idem=IdemWrite("req-1", b"second-record"),
            followups=[FollowUp("job-dup", 0, {})], tokens={"dup": b"x"}, lobby=b"L-dup",
        )
        assert again.status == "duplicate"
        assert again.record == b"first-record"
        assert again.version == 2

        # same key with the version that would otherwise succeed: still a duplicate
        again2 = append(store, gid, 2, evs(3, 4), idem=IdemWrite("req-1", b"third-record"))
        assert (again2.status, again2.version, again2.record) == ("duplicate", 2, b"first-record")

        assert store.version(gid) == 2
        assert store.read(gid) == evs(1, 2)
        assert store.idem_get(gid, "req-1") == b"first-record"
        assert store.token_get(gid, "dup") is None
        assert store.next_due(shard) is None
        assert store.lobby()[gid] == b"L1"

        # a different key is a new command
        other = append(store, gid, 2, evs(3, 1), idem=IdemWrite("req-2", b"rec-2"))
        assert other == AppendResult("ok", 3)
        assert store.idem_get(gid, "req-2") == b"rec-2"
        assert store.idem_get(gid, "req-1") == b"first-record"
        assert store.read(gid, after=2) == evs(3, 1)

    def test_idempotency_records_are_per_game(self, store: Any) -> None:
        a, b = new_gid(), new_gid()
        assert append(store, a, 0, evs(1, 1), idem=IdemWrite("same", b"A")).ok
        assert append(store, b, 0, evs(1, 1), idem=IdemWrite("same", b"B")).ok
        assert store.idem_get(a, "same") == b"A"
        assert store.idem_get(b, "same") == b"B"
        assert store.idem_get(a, "unknown") is None

    @pytest.mark.parametrize("store", REDIS_BACKENDS, indirect=True)
    def test_idempotency_record_has_the_requested_ttl(self, store: Any) -> None:
        gid = new_gid()
        assert append(store, gid, 0, evs(1, 1), idem=IdemWrite("k", b"r", ttl_s=120)).ok
        ttl = store.r.ttl(store.keys.idem(gid, "k"))
        assert 0 < ttl <= 120
