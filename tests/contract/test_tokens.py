"""The tokens port (service/eventstore/ports/tokens.py) on every backend: token records written and
revoked by the append, and the game's store-side metadata beside them."""
from __future__ import annotations

from typing import Any

from tests.contract.helpers import append, evs, new_gid


class TestTokens:
    """``Tokens``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_tokens_set_and_revoked_in_the_same_append(self, store: Any) -> None:
        gid = new_gid()
        assert append(store, gid, 0, evs(1, 1), tokens={"h-owner": b"owner", "h-seat0": b"seat:0"}).ok
        assert store.token_get(gid, "h-owner") == b"owner"
        assert store.token_get(gid, "h-seat0") == b"seat:0"

        res = append(store, gid, 1, evs(2, 1), tokens={"h-seat1": b"seat:1"}, revoke=["h-seat0", "h-never"])
        assert res.ok
        assert store.token_get(gid, "h-seat0") is None
        assert store.token_get(gid, "h-seat1") == b"seat:1"
        assert store.token_get(gid, "h-owner") == b"owner"
        assert store.token_get(gid, "h-never") is None
        # tokens belong to their game
        assert store.token_get(new_gid(), "h-owner") is None

    def test_token_set_and_revoked_in_one_append_ends_revoked(self, store: Any) -> None:
        """Both backends apply the new tokens first, then the revocations."""
        gid = new_gid()
        assert append(store, gid, 0, evs(1, 1), tokens={"h": b"r"}, revoke=["h"]).ok
        assert store.token_get(gid, "h") is None

    def test_metadata_is_kept_beside_the_tokens_and_set_or_deleted_by_field(self, store: Any) -> None:
        gid = new_gid()
        assert append(store, gid, 0, evs(1, 1), tokens={"h": b"seat:0"}).ok
        store.meta_put(gid, "owner", b"net-1")
        store.meta_put(gid, "search", b'{"budget_ms": 5}')
        assert store.token_get(gid, "meta:owner") == b"net-1"
        assert store.token_get(gid, "meta:search") == b'{"budget_ms": 5}'
        store.meta_put(gid, "owner", b"net-2")  # replaced in place
        store.meta_put(gid, "search", None)  # deleted
        store.meta_put(gid, "never", None)  # deleting a field never set is harmless
        assert store.token_get(gid, "meta:owner") == b"net-2"
        assert store.token_get(gid, "meta:search") is None
        assert store.token_get(gid, "h") == b"seat:0"  # the tokens beside it are untouched
        assert store.token_get(new_gid(), "meta:owner") is None  # per game
        assert store.version(gid) == 1  # metadata is no event
