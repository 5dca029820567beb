"""The snapshots port (service/eventstore/ports/snapshots.py) on every backend: kept by version,
the nearest found, dropped."""
from __future__ import annotations

import uuid
from typing import Any


class TestSnapshots:
    """``Snapshots``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_snapshots_are_kept_by_version_and_the_nearest_is_found(self, store: Any) -> None:
        gid = uuid.uuid4().hex[:16]
        assert store.snapshot_get(gid) is None
        store.snapshot_put(gid, 1000, b"a\nx")
        store.snapshot_put(gid, 2003, b"b\ny")
        assert store.snapshot_get(gid) == (2003, b"b\ny")
        assert store.snapshot_get(gid, 2002) == (1000, b"a\nx")
        assert store.snapshot_get(gid, 999) is None
        assert store.snapshot_get(uuid.uuid4().hex[:16]) is None  # per game
        store.snapshot_put(gid, 1000, b"c\nz")  # rewritten in place
        assert store.snapshot_get(gid, 1500) == (1000, b"c\nz")
        assert store.snapshot_drop(gid) == 2
        assert store.snapshot_get(gid) is None and store.snapshot_drop(gid) == 0
