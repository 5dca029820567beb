"""The bot records port (service/eventstore/ports/bot_records.py) on every backend: capped per
owner, owned, dropped with their counters, counters added and reset at once."""
from __future__ import annotations

import uuid
from typing import Any

from service.eventstore.versioned import ANY, CONFLICT, MISSING, OK, Changed
from tests.contract.test_api_keys import rec


class TestBotRecords:
    """``BotRecords``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_bots_are_capped_per_owner_and_dropped_by_their_owner(self, store: Any) -> None:
        owner, other = uuid.uuid4().hex[:8], uuid.uuid4().hex[:8]
        assert store.bot_create(owner, "b1", rec(1), 2, b"c1", 5)
        assert store.bot_create(owner, "b2", rec(1), 2, b"c2", 5)
        assert not store.bot_create(owner, "b3", rec(1), 2, b"c3", 5)  # the cap
        assert not store.bot_create(other, "b1", rec(1), 2, b"c", 5)  # the id is taken
        assert store.bot_load("b3") is None and store.bot_log(owner, "b3", 5) == []
        assert store.bot_change(owner, "b1", 1, rec(2), b"r1", 5) == Changed(OK, rec(2))  # a bot of its own
        assert store.bot_load("b1") == rec(2)
        assert store.bot_ids(owner) == ["b1", "b2"]
        assert store.bot_ids(other) == []
        assert store.bot_change(other, "b1", ANY, None, b"d", 5).status == MISSING  # not the other's
        assert store.bot_log(other, "b1", 5) == []
        assert store.bot_count("b1", {"calls": 2, "failed": 1}) == {"calls": 2, "failed": 1}
        assert store.bot_count("b1", {"calls": 1}, reset={"failed": 0, "away": 1}) == {"calls": 3, "failed": 0, "away": 1}
        assert store.bot_counts("b1") == {"calls": 3, "failed": 0, "away": 1}
        assert store.bot_change(owner, "b1", 2, None, b"d1", 5) == Changed(OK, None)
        assert store.bot_load("b1") is None and store.bot_counts("b1") == {}
        assert store.bot_ids(owner) == ["b2"]
        assert store.bot_create(owner, "b3", rec(1), 2, b"c3", 5)  # room again
        assert store.bot_log(owner, "b1", 5) == [b"d1", b"r1", b"c1"]  # a deleted bot's log is kept

    def test_a_stale_change_is_refused_and_a_deleted_bot_never_comes_back(self, store: Any) -> None:
        owner = uuid.uuid4().hex[:8]
        assert store.bot_create(owner, "b1", rec(1), 5, b"c", 2)
        assert store.bot_change(owner, "b1", 1, rec(2, "x"), b"r", 2).status == OK
        assert store.bot_change(owner, "b1", 1, rec(2, "y"), b"lost", 2) == Changed(CONFLICT, rec(2, "x"))
        assert store.bot_change(owner, "b1", 1, None, b"lost", 2) == Changed(CONFLICT, rec(2, "x"))
        assert store.bot_change(owner, "b1", ANY, None, b"d", 2).status == OK
        for expect in (ANY, 2, 3):  # a rotation that read it before the delete: nothing written
            assert store.bot_change(owner, "b1", expect, rec(3), b"late", 2).status == MISSING
        assert not store.bot_create(owner, "b1", rec(1), 5, b"again", 2)  # its id stays taken while its log is kept
        assert store.bot_load("b1") is None and store.bot_ids(owner) == []
        assert store.bot_log(owner, "b1", 10) == [b"d", b"r"]  # capped at 2
