"""The API keys port (service/eventstore/ports/api_keys.py) on every backend: key records (created
once under a cap, replaced, listed) and each key's own lobby (newest first, paged, capped)."""
from __future__ import annotations

import uuid
from typing import Any


def kid() -> str:
    return "k" + uuid.uuid4().hex[:10]


class TestApiKeys:
    """``ApiKeys``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_a_record_is_created_once_replaced_in_place_and_listed(self, store: Any) -> None:
        a, b = kid(), kid()
        assert store.apikey_get(a) is None
        assert not store.apikey_put(a, b"v0", new=False)  # nothing to replace
        assert store.apikey_get(a) is None
        assert store.apikey_put(a, b"v1", new=True)
        assert not store.apikey_put(a, b"other", new=True)  # the id is taken: the record is untouched
        assert store.apikey_get(a) == b"v1"
        assert store.apikey_put(a, b"v2", new=False)
        assert store.apikey_get(a) == b"v2"
        assert store.apikey_put(b, b"w", new=True)
        assert {k: v for k, v in store.apikey_all().items() if k in (a, b)} == {a: b"v2", b: b"w"}

    def test_a_new_key_beyond_the_cap_is_refused(self, store: Any) -> None:
        have = len(store.apikey_all())
        assert store.apikey_put(kid(), b"1", new=True, cap=have + 2)
        assert store.apikey_put(kid(), b"2", new=True, cap=have + 2)
        extra = kid()
        assert not store.apikey_put(extra, b"3", new=True, cap=have + 2)
        assert store.apikey_get(extra) is None
        assert store.apikey_put(extra, b"3", new=True, cap=0)  # 0: no cap

    def test_a_keys_lobby_is_newest_first_paged_capped_and_its_own(self, store: Any) -> None:
        k, other = kid(), kid()
        for i, at in enumerate((10, 30, 20, 30, 40)):
            store.key_game_add(k, f"g{i}", at, cap=100)
        store.key_game_add(other, "gx", 50, cap=100)
        assert store.key_games(k, None, 10) == [(40, "g4"), (30, "g1"), (30, "g3"), (20, "g2"), (10, "g0")]
        assert store.key_games(k, None, 2) == [(40, "g4"), (30, "g1")]
        assert store.key_games(k, (30, "g1"), 2) == [(30, "g3"), (20, "g2")]  # ties by id across pages
        assert store.key_games(k, (10, "g0"), 2) == []
        assert store.key_games(other, None, 10) == [(50, "gx")]
        store.key_game_drop(k, "g3")
        store.key_game_drop(k, "never")
        assert [g for _, g in store.key_games(k, None, 10)] == ["g4", "g1", "g2", "g0"]
        store.key_game_add(k, "g5", 60, cap=3)  # beyond the cap the oldest go
        assert store.key_games(k, None, 10) == [(60, "g5"), (40, "g4"), (30, "g1")]
        assert store.key_games(kid(), None, 10) == []
