"""The bot records port (service/eventstore/ports/bot_records.py) on every backend: capped per
owner, owned, dropped with their counters, counters added and reset at once."""
from __future__ import annotations

import uuid
from typing import Any


class TestBotRecords:
    """``BotRecords``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_bots_are_capped_per_owner_and_dropped_by_their_owner(self, store: Any) -> None:
        owner, other = uuid.uuid4().hex[:8], uuid.uuid4().hex[:8]
        assert store.bot_save(owner, "b1", b'{"n": 1}', cap=2)
        assert store.bot_save(owner, "b2", b'{"n": 2}', cap=2)
        assert not store.bot_save(owner, "b3", b'{"n": 3}', cap=2)  # the cap
        assert store.bot_load("b3") is None
        assert store.bot_save(owner, "b1", b'{"n": 10}', cap=2)  # a bot of its own is rewritten
        assert store.bot_load("b1") == b'{"n": 10}'
        assert store.bot_ids(owner) == ["b1", "b2"]
        assert store.bot_ids(other) == []
        assert not store.bot_drop(other, "b1")  # not the other's
        assert store.bot_count("b1", {"calls": 2, "failed": 1}) == {"calls": 2, "failed": 1}
        assert store.bot_count("b1", {"calls": 1}, reset={"failed": 0, "away": 1}) == {"calls": 3, "failed": 0, "away": 1}
        assert store.bot_counts("b1") == {"calls": 3, "failed": 0, "away": 1}
        assert store.bot_drop(owner, "b1")
        assert store.bot_load("b1") is None and store.bot_counts("b1") == {}
        assert store.bot_ids(owner) == ["b2"]
        assert store.bot_save(owner, "b3", b"{}", cap=2)  # room again
