"""The API keys port (service/eventstore/ports/api_keys.py) on every backend: key records (created
once under a cap, replaced, listed) and each key's own lobby (newest first, paged, capped)."""
from __future__ import annotations

import uuid
from typing import Any

import orjson

from service.eventstore.versioned import ANY, CONFLICT, MISSING, OK, Changed


def rec(version: int, tag: str = "") -> bytes:
    return orjson.dumps({"version": version, "tag": tag})


def kid() -> str:
    return "k" + uuid.uuid4().hex[:10]


class TestApiKeys:
    """``ApiKeys``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_a_record_is_created_once_replaced_in_place_and_listed(self, store: Any) -> None:
        a, b = kid(), kid()
        assert store.apikey_get(a) is None
        assert store.apikey_change(a, ANY, rec(1), b"e", keep=5).status == MISSING  # nothing to replace
        assert store.apikey_get(a) is None and store.apikey_log(a, 10) == []
        assert store.apikey_create(a, rec(1), cap=0, entry=b"created", keep=5)
        assert not store.apikey_create(a, b"other", cap=0, entry=b"again", keep=5)  # taken: untouched
        assert store.apikey_get(a) == rec(1)
        assert store.apikey_change(a, 1, rec(2), b"rotated", keep=5) == Changed(OK, rec(2))
        assert store.apikey_get(a) == rec(2)
        assert store.apikey_create(b, b"w", cap=0, entry=b"created", keep=5)
        assert {k: v for k, v in store.apikey_all().items() if k in (a, b)} == {a: rec(2), b: b"w"}
        assert store.apikey_log(a, 10) == [b"rotated", b"created"]  # newest first

    def test_a_change_from_a_stale_version_is_refused_whole_and_the_log_is_capped(self, store: Any) -> None:
        a = kid()
        assert store.apikey_create(a, rec(1), cap=0, entry=b"e1", keep=3)
        assert store.apikey_change(a, 1, rec(2, "x"), b"e2", keep=3).status == OK
        lost = store.apikey_change(a, 1, rec(2, "y"), b"lost", keep=3)  # made from version 1 too: too late
        assert lost == Changed(CONFLICT, rec(2, "x"))
        assert store.apikey_get(a) == rec(2, "x")
        for v in (3, 4, 5):
            assert store.apikey_change(a, v - 1, rec(v), f"e{v}".encode(), keep=3).status == OK
        assert store.apikey_change(a, ANY, rec(6), b"e6", keep=3).status == OK  # ANY: only that it exists
        assert store.apikey_log(a, 10) == [b"e6", b"e5", b"e4"] and store.apikey_log(a, 1) == [b"e6"]
        no_version = kid()  # a record written before versions is at version 0
        assert store.apikey_create(no_version, b'{"id": 1}', cap=0, entry=b"e", keep=3)
        assert store.apikey_change(no_version, 0, rec(1), b"e", keep=3).status == OK

    def test_a_new_key_beyond_the_cap_is_refused(self, store: Any) -> None:
        have = len(store.apikey_all())
        assert store.apikey_create(kid(), b"1", cap=have + 2, entry=b"e", keep=1)
        assert store.apikey_create(kid(), b"2", cap=have + 2, entry=b"e", keep=1)
        extra = kid()
        assert not store.apikey_create(extra, b"3", cap=have + 2, entry=b"e", keep=1)
        assert store.apikey_get(extra) is None and store.apikey_log(extra, 5) == []
        assert store.apikey_create(extra, b"3", cap=0, entry=b"e", keep=1)  # 0: no cap

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
