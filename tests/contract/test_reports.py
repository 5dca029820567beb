"""The reports port (service/eventstore/ports/reports.py) on every backend: a verify report lives as
long as its game."""
from __future__ import annotations

from typing import Any

from tests.contract.helpers import chained, new_gid


class TestReports:
    """``Reports``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_a_verify_report_lives_as_long_as_its_game(self, store: Any) -> None:
        """Kept through compaction, deleted with the game, never written for a game that is gone."""
        gid, gone = new_gid("d"), new_gid("d")
        assert store.report_put(gone, b"r") is False and store.report_get(gone) is None  # no such game
        chained(store, gid, [3])
        assert store.report_get(gid) is None
        assert store.report_put(gid, b'{"ok":true}') is True
        assert store.compact(gid, 3) == "compacted"
        assert store.report_get(gid) == b'{"ok":true}'
        assert store.evict_game(gid, 3, "prsi") is True
        assert store.report_get(gid) is None
        assert store.report_put(gid, b"late") is False and store.report_get(gid) is None  # evicted: not kept
