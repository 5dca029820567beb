"""The append feed port (service/eventstore/ports/append_feed.py) on every backend: each shard's
notifications of its appends, read after a cursor, blocking until one comes."""
from __future__ import annotations

import threading
import time
from typing import Any

from tests.contract.helpers import append, evs, new_gid, run_in_thread


class TestAppendFeed:
    """``AppendFeed``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_feed_names_each_append_with_its_game_and_new_version(self, store: Any) -> None:
        gid, other = new_gid("5"), new_gid("6")
        head = store.feed_head("5")
        assert append(store, gid, 0, evs(1, 2)).ok
        assert append(store, other, 0, evs(1, 1)).ok  # another shard: not in shard 5's feed
        assert append(store, gid, 2, evs(3, 3)).ok
        assert not append(store, gid, 2, evs(3, 1)).ok  # a conflict notifies nobody
        last, got = store.feed_read("5", head, block_ms=1)
        assert [n for n in got if n[0] in (gid, other)] == [(gid, 2), (gid, 5)]
        assert store.feed_head("5") == last
        assert store.feed_read("5", last, block_ms=1) == (last, [])
        unknown = new_gid()
        assert store.versions([gid, other, unknown]) == {gid: 5, other: 1, unknown: 0}

    def test_feed_read_blocks_until_an_append(self, store: Any) -> None:
        gid = new_gid("7")
        head = store.feed_head("7")

        def later() -> None:
            time.sleep(0.3)
            append(store, gid, 0, evs(1, 1))

        t = threading.Thread(target=later, daemon=True)
        t.start()
        started = time.monotonic()
        done, result = run_in_thread(lambda: store.feed_read("7", head, block_ms=15_000))
        t.join(20)
        assert done and (gid, 1) in result[1]
        assert time.monotonic() - started < 14  # woke on the append, not at the block timeout
