"""The retention port (service/eventstore/ports/retention.py) on every backend: a compacted game
reads byte for byte as before, takes no more events, drops its idempotency records, keeps its
tokens; compaction is idempotent and safe against concurrent reads; expiry and eviction remove
everything of a game and nothing else."""
from __future__ import annotations

import threading
import uuid
from typing import Any

import orjson

from service.eventstore.chain import GENESIS
from service.eventstore.codec import encode, encode_batch
from service.eventstore.contract import AppendRequest, IdemWrite, Listing, shard_of
from tests.contract.helpers import T0, append, chained, everything, evs, listed, new_gid


class TestRetention:
    """``Retention``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_a_compacted_game_reads_byte_for_byte_as_before(self, store: Any) -> None:
        gid = new_gid()
        chained(store, gid, [3, 1, 4, 250, 7, 1, 300, 2], tokens={"tok-hash": b"seat:0"})
        before = everything(store, gid)
        assert store.form(gid) == "stream"
        assert store.compact(gid, before[0]) == "compacted"
        assert store.form(gid) == "compact"
        assert everything(store, gid) == before
        assert store.compact(gid, before[0]) == "already"  # idempotent
        assert everything(store, gid) == before
        assert store.token_get(gid, "tok-hash") == b"seat:0"  # tokens stay (players read the history)
        assert store.wait(gid, before[0] - 1, 0.01) is True
        assert store.wait(gid, before[0], 0.05) is False

    def test_compaction_refuses_a_moved_version_and_a_missing_game(self, store: Any) -> None:
        gid = new_gid()
        chained(store, gid, [2, 2])
        assert store.compact(gid, 3) == "conflict"
        assert store.form(gid) == "stream"
        assert store.compact(new_gid(), 1) == "missing"
        assert store.compact(gid, 4) == "compacted"

    def test_a_compacted_game_takes_no_more_events_not_even_a_new_game_at_its_id(self, store: Any) -> None:
        gid = new_gid()
        chained(store, gid, [2, 3])
        before = everything(store, gid)
        assert store.compact(gid, 5) == "compacted"
        assert append(store, gid, 5, evs(6, 1)) .status == "conflict"
        res = append(store, gid, 0, evs(1, 1))  # a create at the same id (the id follows from a key)
        assert (res.status, res.version) == ("conflict", 5)
        assert everything(store, gid) == before

    def test_compaction_drops_the_games_idempotency_records_only(self, store: Any) -> None:
        gid, other = new_gid("a"), new_gid("a")
        head = chained(store, gid, [2])
        assert append(store, gid, 2, evs(3, 1), idem=IdemWrite("k1", b"answer-1"), prev_hash=head).ok
        assert append(store, other, 0, evs(1, 1), idem=IdemWrite("k1", b"other-answer"), prev_hash=GENESIS).ok
        assert store.idem_get(gid, "k1") == b"answer-1"
        assert store.compact(gid, 3) == "compacted"
        assert store.idem_get(gid, "k1") is None
        assert store.idem_get(other, "k1") == b"other-answer"

    def test_events_the_compact_form_cannot_rebuild_are_kept_as_stored(self, store: Any) -> None:
        gid = new_gid()
        plain = [encode(e) for e in evs(1, 2)]  # stored without a chain hash
        assert store.append(AppendRequest(gid, 0, evs(1, 2), payloads=plain)).ok
        forged = orjson.loads(encode_batch(evs(3, 1), GENESIS, None)[0])
        forged["h"] = "f" * 64  # a hash that is not the chain's (a corrupted game stays corrupted)
        odd = [orjson.dumps(forged), b'{"t":"TurnStarted","v":1,"at":5,"r":1,"s":null,"d":{},"h":"x"}']
        assert store.append(AppendRequest(gid, 2, evs(3, 2), payloads=odd)).ok
        chained_after = encode_batch(evs(5, 3), "f" * 64, {"type": "play"})
        assert store.append(AppendRequest(gid, 4, evs(5, 3), payloads=chained_after)).ok
        before = everything(store, gid)
        assert store.compact(gid, 7) == "compacted"
        assert everything(store, gid) == before

    def test_reads_during_compaction_see_the_stream_or_its_compact_form_never_less(self, store: Any) -> None:
        gid = new_gid()
        chained(store, gid, [40] * 20)
        truth = [s.body for s in store.read_stored(gid)]
        seen: list[Any] = []
        stop = threading.Event()

        def reader() -> None:
            while not stop.is_set():
                seen.append(([s.body for s in store.read_stored(gid)], store.version(gid)))

        threads = [threading.Thread(target=reader) for _ in range(3)]
        for t in threads:
            t.start()
        try:
            assert store.compact(gid, 800) == "compacted"
            n = len(seen)
            while len(seen) < n + 6:
                threading.Event().wait(0.005)
        finally:
            stop.set()
            for t in threads:
                t.join(10)
        assert len(seen) > 6
        assert all(bodies == truth and version == 800 for bodies, version in seen)

    def test_evicting_a_game_removes_everything_of_it(self, store: Any) -> None:
        gid, other = new_gid("c"), new_gid("c")
        listing = Listing("finished", "prsi", 1000)
        chained(store, gid, [3], tokens={"t": b"r"}, lobby=b"row", listing=listing)
        chained(store, other, [2], lobby=b"other-row", listing=Listing("finished", "prsi", 999))
        store.snapshot_put(gid, 3, b"snap")
        assert store.evict_game(gid, 2, "prsi") is False  # not at that version
        assert store.compact(gid, 3) == "compacted"
        assert store.evict_game(gid, 3, "prsi") is True
        assert (store.version(gid), store.read(gid), store.form(gid)) == (0, [], "none")
        assert store.token_get(gid, "t") is None and store.snapshot_get(gid) is None
        assert gid not in store.lobby() and store.lobby_page("finished", None, None, 10) == [b"other-row"]
        assert store.evict_game(gid, 3, "prsi") is False
        assert shard_of(gid) == shard_of(other) and store.version(other) == 2

    def test_expire_game_deletes_an_unchanged_game_and_nothing_else(self, store: Any) -> None:
        tag = uuid.uuid4().hex[:6]
        gone, kept = new_gid("3"), new_gid("3")
        for gid in (gone, kept):
            listed(store, gid, 0, "open", None, T0, variant=tag)
            assert append(store, gid, 1, evs(2, 1), tokens={"h": b"r"}).ok
        assert not store.expire_game(gone, 1, tag)  # it moved on since: not expired
        assert store.expire_game(gone, 2, tag)
        assert store.read(gone) == [] and store.version(gone) == 0 and store.token_get(gone, "h") is None
        assert gone not in store.lobby() and list(store.lobby_page(None, tag, None, 10)) == [store.lobby()[kept]]
        assert store.version(kept) == 2 and store.token_get(kept, "h") == b"r"
        assert not store.expire_game(new_gid("3"), 0, tag)  # nothing to expire
