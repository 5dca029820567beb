"""The lobby port (service/eventstore/ports/lobby.py) on every backend: summary rows and the
per-status, per-variant indexes the append keeps, paged newest first across shards."""
from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.contract.backends import REDIS_BACKENDS
from tests.contract.helpers import T0, append, evs, listed, new_gid


class TestLobby:
    """``Lobby``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_lobby_summary_is_written_and_replaced(self, store: Any) -> None:
        a, b = new_gid("1"), new_gid("f")
        assert store.lobby() == {}
        assert append(store, a, 0, evs(1, 1), lobby=b'{"name":"a","v":1}').ok
        assert append(store, b, 0, evs(1, 1), lobby=b'{"name":"b"}').ok
        assert store.lobby() == {a: b'{"name":"a","v":1}', b: b'{"name":"b"}'}
        assert append(store, a, 1, evs(2, 1), lobby=b'{"name":"a","v":2}').ok
        assert append(store, a, 2, evs(3, 1)).ok  # no summary: the last one stays
        assert store.lobby() == {a: b'{"name":"a","v":2}', b: b'{"name":"b"}'}

    def test_lobby_pages_by_status_and_variant_newest_first_across_shards(self, store: Any) -> None:
        tag = uuid.uuid4().hex[:6]  # a variant name of this test only (the real Redis is shared)
        games = [new_gid(s) for s in "0a5f0a"]
        for i, gid in enumerate(games):
            listed(store, gid, 0, "open", None, T0 + (i // 2), variant=tag)  # created in pairs: equal times
        listed(store, games[1], 1, "running", "open", T0, variant=tag)
        listed(store, games[1], 2, "finished", "running", T0, variant=tag)
        listed(store, games[4], 1, "running", "open", T0 + 2, variant=tag)

        def ids(status: str | None, before: tuple[int, str] | None = None, limit: int = 10) -> list[str]:
            import json

            return [json.loads(x)["id"] for x in store.lobby_page(status, tag, before, limit)]

        order = sorted(games, key=lambda g: (-(T0 + games.index(g) // 2), g))
        assert ids(None) == order
        assert ids("open") == [g for g in order if g not in (games[1], games[4])]
        assert ids("running") == [games[4]] and ids("finished") == [games[1]]
        pages, cursor = [], None
        while True:  # two at a time, through the ties, with cursors
            page = ids(None, cursor, 2)
            if not page:
                break
            pages += page
            cursor = (T0 + games.index(page[-1]) // 2, page[-1])
        assert pages == order
        assert store.lobby_page("open", uuid.uuid4().hex[:6], None, 5) == []

    @pytest.mark.parametrize("store", REDIS_BACKENDS, indirect=True)
    def test_games_listed_before_the_indexes_are_indexed_once(self, store: Any) -> None:
        import json

        tag = uuid.uuid4().hex[:6]
        gid = new_gid("9")
        summary = {"id": gid, "variant": tag, "status": "running", "created_at": T0}
        store.r.hset(store.keys.lobby("9"), gid, json.dumps(summary))  # as an older version wrote it
        assert store.lobby_page("running", tag, None, 5) == []
        assert store.index_lobby() >= 1
        assert [json.loads(x)["id"] for x in store.lobby_page("running", tag, None, 5)] == [gid]
        assert [json.loads(x)["id"] for x in store.lobby_page(None, None, None, 100)].count(gid) == 1
        assert store.index_lobby() == 0  # once

    def test_indexing_the_lobby_again_changes_nothing(self, store: Any) -> None:
        tag = uuid.uuid4().hex[:6]
        gid = new_gid("4")
        listed(store, gid, 0, "open", None, T0, variant=tag)
        before = store.lobby_page(None, tag, None, 5)
        assert store.index_lobby() >= 0
        assert store.index_lobby() == 0  # once: nothing is indexed twice
        assert store.lobby_page(None, tag, None, 5) == before == [store.lobby()[gid]]
