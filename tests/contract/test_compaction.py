"""The event store contract for compaction (issue 16), on memory, fakeredis and a real Redis: a
compacted game reads byte for byte as before, takes no more events, drops its idempotency
records, keeps its tokens; compaction is idempotent and safe against concurrent reads; eviction
removes everything of a game."""
from __future__ import annotations

import threading
from typing import Any

import orjson

from service.eventstore.chain import GENESIS
from service.eventstore.codec import encode, encode_batch
from service.eventstore.contract import AppendRequest, IdemWrite, Listing, shard_of
from service.games.kernel.model import Event

from . import test_event_store
from .test_event_store import append, evs, new_gid

store = test_event_store.store  # the backends' fixture (an assignment: the tests' `store` parameters do not shadow an import)


def chained(store: Any, gid: str, batches: list[int], **first: Any) -> str:
    """Append batches of events of the given sizes as the write path does (chain hashes, a nonce
    on every event with private data, the command on each batch's first event); the head."""
    head, version = GENESIS, 0
    for i, n in enumerate(batches):
        events = evs(version + 1, n)
        if i % 3 == 2:  # some events with nothing hidden: no nonce
            events = [Event(seq=e.seq, type="TurnStarted", at=e.at, round=1, seat=1) for e in events]
        payloads = encode_batch(events, head, {"type": "play", "n": i})
        extra = first if i == 0 else {}
        res = store.append(AppendRequest(gid, version, events, payloads=payloads, prev_hash=head, **extra))
        assert res.ok, res
        head = orjson.loads(payloads[-1])["h"]
        version += n
    return head


def everything(store: Any, gid: str) -> list[Any]:
    """Every read the contract offers, over several ranges."""
    v = store.version(gid)
    out: list[Any] = [v, store.versions([gid, "f" * 16]), store.read(gid)]
    for after, count in [(0, None), (0, 1), (3, 5), (v - 1, None), (v, None), (v + 5, None), (255, 3), (1, 300)]:
        out.append([(s.event, dict(s.body), s.hash, s.command) for s in store.read_stored(gid, after, count)])
    out.append(store.read(gid, after=v // 2))
    return out


def test_a_compacted_game_reads_byte_for_byte_as_before(store: Any) -> None:
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


def test_compaction_refuses_a_moved_version_and_a_missing_game(store: Any) -> None:
    gid = new_gid()
    chained(store, gid, [2, 2])
    assert store.compact(gid, 3) == "conflict"
    assert store.form(gid) == "stream"
    assert store.compact(new_gid(), 1) == "missing"
    assert store.compact(gid, 4) == "compacted"


def test_a_compacted_game_takes_no_more_events_not_even_a_new_game_at_its_id(store: Any) -> None:
    gid = new_gid()
    chained(store, gid, [2, 3])
    before = everything(store, gid)
    assert store.compact(gid, 5) == "compacted"
    assert append(store, gid, 5, evs(6, 1)) .status == "conflict"
    res = append(store, gid, 0, evs(1, 1))  # a create at the same id (the id follows from a key)
    assert (res.status, res.version) == ("conflict", 5)
    assert everything(store, gid) == before


def test_compaction_drops_the_games_idempotency_records_only(store: Any) -> None:
    gid, other = new_gid("a"), new_gid("a")
    head = chained(store, gid, [2])
    assert append(store, gid, 2, evs(3, 1), idem=IdemWrite("k1", b"answer-1"), prev_hash=head).ok
    assert append(store, other, 0, evs(1, 1), idem=IdemWrite("k1", b"other-answer"), prev_hash=GENESIS).ok
    assert store.idem_get(gid, "k1") == b"answer-1"
    assert store.compact(gid, 3) == "compacted"
    assert store.idem_get(gid, "k1") is None
    assert store.idem_get(other, "k1") == b"other-answer"


def test_events_the_compact_form_cannot_rebuild_are_kept_as_stored(store: Any) -> None:
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


def test_reads_during_compaction_see_the_stream_or_its_compact_form_never_less(store: Any) -> None:
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


def test_evicting_a_game_removes_everything_of_it(store: Any) -> None:
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


def test_a_verify_report_lives_as_long_as_its_game(store: Any) -> None:
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
