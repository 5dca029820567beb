"""The webhooks port (service/eventstore/ports/webhooks.py) on every backend: endpoints capped per
owner, health counters, and a bounded delivery log read newest first."""
from __future__ import annotations

import uuid
from typing import Any

from service.eventstore.versioned import ANY, CONFLICT, MISSING, OK, Changed
from tests.contract.test_api_keys import rec


def owner() -> str:
    return "k" + uuid.uuid4().hex[:10]


class TestWebhooks:
    """``Webhooks``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_endpoints_are_capped_per_owner_and_replaced_only_when_they_exist(self, store: Any) -> None:
        a, b = owner(), owner()
        assert store.hook_create(a, "wh1", rec(1, "one"), cap=2, entry=b"c1", keep=5)
        assert not store.hook_create(a, "wh1", b"again", cap=2, entry=b"x", keep=5)  # the id is taken
        assert store.hook_create(a, "wh2", rec(1, "two"), cap=2, entry=b"c2", keep=5)
        assert not store.hook_create(a, "wh3", b"three", cap=2, entry=b"x", keep=5)  # the cap
        assert store.hook_create(b, "wh3", b"other owner", cap=2, entry=b"c3", keep=5)  # caps are per owner
        assert store.hook_change(a, "wh1", 1, rec(2, "one'"), b"r1", 5) == Changed(OK, rec(2, "one'"))
        assert store.hook_change(a, "wh9", ANY, b"nobody", b"x", 5).status == MISSING
        assert store.hook_change(b, "wh1", ANY, b"not b's", b"x", 5).status == MISSING
        assert store.hook_get(a, "wh1") == rec(2, "one'") and store.hook_get(a, "wh9") is None
        assert store.hook_all(a) == {"wh1": rec(2, "one'"), "wh2": rec(1, "two")}
        assert store.hook_all(owner()) == {}
        assert store.hook_log(a, "wh1", 5) == [b"r1", b"c1"] and store.hook_log(b, "wh1", 5) == []

    def test_a_stale_change_is_refused_and_a_change_sets_health_with_it(self, store: Any) -> None:
        a = owner()
        assert store.hook_create(a, "wh1", rec(1), cap=0, entry=b"c", keep=2)
        store.hook_health_set(a, "wh1", {"streak": 3, "failed": 2})
        done = store.hook_change(a, "wh1", 1, rec(2, "off"), b"disabled", 2, health={"disabled_at": 77, "failed": 0})
        assert done.status == OK and store.hook_health(a, "wh1") == {"streak": 3, "disabled_at": 77}
        lost = store.hook_change(a, "wh1", 1, rec(2, "on"), b"lost", 2, health={"disabled_at": 0})
        assert lost == Changed(CONFLICT, rec(2, "off")) and store.hook_health(a, "wh1")["disabled_at"] == 77
        assert store.hook_log(a, "wh1", 10) == [b"disabled", b"c"]
        assert store.hook_change(a, "wh1", 2, rec(3), b"rotated", 2).status == OK
        assert store.hook_log(a, "wh1", 10) == [b"rotated", b"disabled"]  # capped at 2

    def test_deleting_an_endpoint_takes_its_health_and_frees_its_place(self, store: Any) -> None:
        a = owner()
        assert store.hook_create(a, "wh1", rec(1), cap=1, entry=b"c", keep=5)
        store.hook_health_set(a, "wh1", {"streak": 3})
        assert store.hook_change(a, "wh1", 1, None, b"deleted", 5) == Changed(OK, None)
        assert store.hook_change(a, "wh1", ANY, None, b"again", 5).status == MISSING
        assert store.hook_change(a, "wh1", 1, rec(2), b"late rotation", 5).status == MISSING  # never back
        assert store.hook_health(a, "wh1") == {} and store.hook_get(a, "wh1") is None
        assert store.hook_create(a, "wh2", rec(1), cap=1, entry=b"c", keep=5)
        assert not store.hook_create(a, "wh1", rec(1), cap=2, entry=b"c", keep=5)  # taken while its log is kept
        assert store.hook_log(a, "wh1", 5) == [b"deleted", b"c"]

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
