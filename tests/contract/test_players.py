"""The players and matchmaking ports (service/eventstore/ports/players.py, matchmaking.py) on every
backend: a finished game counted once, a changed record refused, the leaderboard's order and pages,
and quick play's table replaced only by compare-and-set."""
from __future__ import annotations

import time
import uuid
from typing import Any


def _owner() -> str:
    return "k" + uuid.uuid4().hex[:8]


class TestPlayers:
    """``Players``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_a_game_is_counted_once_and_a_changed_record_refused(self, store: Any) -> None:
        owner = _owner()
        assert store.player_get(owner, "prsi", ["ann", "bob"]) == [None, None]
        new = {"ann": (b'{"g":1}', 2.5), "bob": (b'{"g":1,"x":0}', 1.0)}
        assert store.player_record(owner, "prsi", "g1", {"ann": None, "bob": None}, new, 1, 100) == "ok"
        assert store.player_get(owner, "prsi", ["bob", "ann"]) == [b'{"g":1,"x":0}', b'{"g":1}']
        # a replayed job: the game was counted
        assert store.player_record(owner, "prsi", "g1", {"ann": b'{"g":1}'}, {"ann": (b'{"g":2}', 3.0)}, 2, 100) \
            == "duplicate"
        # a record that changed since it was read: nothing written
        stale = {"ann": None, "cid": None}
        assert store.player_record(owner, "prsi", "g2", stale, {"ann": (b"x", 9.0), "cid": (b"y", 9.0)}, 3, 100) \
            == "conflict"
        assert store.player_get(owner, "prsi", ["ann", "cid"]) == [b'{"g":1}', None]
        assert store.player_count(owner, "prsi") == 2
        # owners and variants are apart
        assert store.player_get(_owner(), "prsi", ["ann"]) == [None]
        assert store.player_count(owner, "mau-mau") == 0

    def test_the_leaderboard_is_best_first_paged_and_ties_by_ref_descending(self, store: Any) -> None:
        owner = _owner()
        scores = {"a": 1.0, "b": 3.0, "c": 3.0, "d": -2.0, "e": 0.5}
        new = {ref: (ref.encode(), s) for ref, s in scores.items()}
        assert store.player_record(owner, "prsi", "g", dict.fromkeys(scores), new, 1, 10) == "ok"
        assert [r for r, _ in store.player_page(owner, "prsi", 0, 10)] == ["c", "b", "a", "e", "d"]
        assert store.player_page(owner, "prsi", 1, 2) == [("b", b"b"), ("a", b"a")]
        assert store.player_page(owner, "prsi", 5, 2) == []
        assert store.player_page(owner, "prsi", 0, 0) == []

    def test_only_the_newest_counted_games_are_remembered(self, store: Any) -> None:
        owner = _owner()
        for i in range(4):
            assert store.player_record(owner, "prsi", f"g{i}", {}, {}, i, 2) == "ok"
        assert store.player_record(owner, "prsi", "g3", {}, {}, 9, 2) == "duplicate"
        assert store.player_record(owner, "prsi", "g0", {}, {}, 9, 2) == "ok"  # forgotten: bounded


class TestMatchmaking:
    """``Matchmaking``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_the_table_is_replaced_only_by_compare_and_set_and_lapses(self, store: Any) -> None:
        scope = _owner()
        assert store.quick_get(scope, "prsi") is None
        assert store.quick_swap(scope, "prsi", None, "t1", 60_000) == "t1"
        assert store.quick_swap(scope, "prsi", None, "t2", 60_000) == "t1"  # lost the race: the winner's
        assert store.quick_swap(scope, "prsi", "t0", "t2", 60_000) == "t1"
        assert store.quick_swap(scope, "prsi", "t1", "t2", 60_000) == "t2"
        assert store.quick_get(scope, "prsi") == "t2"
        assert store.quick_get(scope, "mau-mau") is None and store.quick_get(_owner(), "prsi") is None
        assert store.quick_swap(scope, "mau-mau", None, "t3", 50) == "t3"
        deadline = time.monotonic() + 5
        while store.quick_get(scope, "mau-mau") is not None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert store.quick_get(scope, "mau-mau") is None
