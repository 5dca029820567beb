"""The webhooks port (service/eventstore/ports/webhooks.py) on every backend: endpoints capped per
owner, health counters, and a bounded delivery log read newest first."""
from __future__ import annotations

import uuid
from typing import Any


def owner() -> str:
    return "k" + uuid.uuid4().hex[:10]


class TestWebhooks:
    """``Webhooks``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_endpoints_are_capped_per_owner_and_replaced_only_when_they_exist(self, store: Any) -> None:
        a, b = owner(), owner()
        assert store.hook_put(a, "wh1", b"one", new=True, cap=2)
        assert not store.hook_put(a, "wh1", b"again", new=True, cap=2)  # the id is taken
        assert store.hook_put(a, "wh2", b"two", new=True, cap=2)
        assert not store.hook_put(a, "wh3", b"three", new=True, cap=2)  # the cap
        assert store.hook_put(b, "wh3", b"other owner", new=True, cap=2)  # caps are per owner
        assert store.hook_put(a, "wh1", b"one'", new=False)
        assert not store.hook_put(a, "wh9", b"nobody", new=False)
        assert store.hook_get(a, "wh1") == b"one'" and store.hook_get(a, "wh9") is None
        assert store.hook_all(a) == {"wh1": b"one'", "wh2": b"two"}
        assert store.hook_all(owner()) == {}

    def test_deleting_an_endpoint_takes_its_health_and_frees_its_place(self, store: Any) -> None:
        a = owner()
        assert store.hook_put(a, "wh1", b"one", new=True, cap=1)
        store.hook_health_set(a, "wh1", {"streak": 3})
        assert store.hook_delete(a, "wh1") and not store.hook_delete(a, "wh1")
        assert store.hook_health(a, "wh1") == {} and store.hook_get(a, "wh1") is None
        assert store.hook_put(a, "wh2", b"two", new=True, cap=1)

    def test_health_counters_add_atomically_and_zero_removes(self, store: Any) -> None:
        a = owner()
        assert store.hook_health(a, "wh1") == {}
        assert store.hook_health_add(a, "wh1", "streak", 1) == 1
        assert store.hook_health_add(a, "wh1", "streak", 2) == 3
        store.hook_health_set(a, "wh1", {"hold_until": 1234, "failed": 0})
        assert store.hook_health(a, "wh1") == {"streak": 3, "hold_until": 1234}
        store.hook_health_set(a, "wh1", {"streak": 0, "hold_until": 0})
        assert store.hook_health(a, "wh1") == {}

    def test_the_delivery_log_is_bounded_deduplicated_and_read_newest_first(self, store: Any) -> None:
        a = owner()
        positions = [store.delivery_add(a, f"d{i}", f"r{i}".encode(), keep=3) for i in range(5)]
        assert positions == sorted(positions) and all(p > 0 for p in positions)
        assert store.delivery_add(a, "d4", b"again", keep=3) == 0  # logged already: kept as it was
        assert store.delivery_get(a, "d4") == b"r4"
        assert store.delivery_get(a, "d0") is None and store.delivery_get(a, "d1") is None  # the oldest went
        page = store.delivery_page(a, None, 2)
        assert [r for _, r in page] == [b"r4", b"r3"]
        assert [r for _, r in store.delivery_page(a, page[-1][0], 2)] == [b"r2"]
        assert store.delivery_put(a, "d2", b"r2'") and not store.delivery_put(a, "d0", b"gone")
        assert store.delivery_get(a, "d2") == b"r2'"
        assert store.delivery_page(owner(), None, 5) == []
