"""What the contract classes share: game ids, fully populated events, appends as the write path
makes them, and a guard against a hanging call."""
from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from typing import Any

import orjson

from service.eventstore.chain import GENESIS
from service.eventstore.codec import encode_batch
from service.eventstore.contract import AppendRequest, AppendResult, Listing
from service.eventstore.memory import MemoryEventStore
from service.games.kernel.model import Event

T0 = 1_700_000_000_000


def new_gid(shard: str | None = None) -> str:
    """A game id: 16 lowercase hex chars, the first one being the shard."""
    gid = uuid.uuid4().hex[:16]
    return gid if shard is None else shard + gid[1:]


def ev(seq: int, type: str = "CardPlayed", **over: Any) -> Event:
    """A fully populated event: public data, per-seat private data (int keys) and a secret."""
    fields: dict[str, Any] = dict(
        seq=seq,
        type=type,
        at=T0 + seq,
        round=1,
        seat=seq % 4,
        data={"card": f"7H:{seq}", "n": seq, "nested": {"list": [1, 2, seq]}},
        to_seat={0: {"hand": ["7H", "8S"]}, 2: {"drawn": f"KD:{seq}"}},
        secret={"seed": f"{seq:064x}"},
    )
    fields.update(over)
    return Event(**fields)


def evs(start: int, n: int, **over: Any) -> list[Event]:
    """Events numbered start..start+n-1 (the seqs the store should assign)."""
    return [ev(start + i, **over) for i in range(n)]


def append(store: Any, gid: str, expected: int, events: list[Event], **kw: Any) -> AppendResult:
    return store.append(AppendRequest(game_id=gid, expected_version=expected, events=events, **kw))


def run_in_thread(fn: Callable[[], Any], join_s: float = 15.0) -> tuple[bool, Any]:
    """Run fn in a daemon thread; (finished, result-or-exception). Guards against hangs."""
    box: list[Any] = []

    def target() -> None:
        try:
            box.append(fn())
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            box.append(exc)

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(join_s)
    return (not t.is_alive(), box[0] if box else None)


def store_raw(store: Any, gid: str, seq: int, raw: bytes) -> None:
    """Write a stored event bypassing the codec (simulates a poison entry)."""
    if isinstance(store, MemoryEventStore):
        stream = store._streams[gid]
        assert len(stream) == seq - 1
        stream.append(raw)
    else:
        store.r.xadd(store.keys.stream(gid), {"e": raw}, id=f"{seq}-0")


def listed(store: Any, gid: str, expected: int, status: str, prev: str | None, at: int, variant: str = "prsi") -> None:
    assert append(store, gid, expected, evs(expected + 1, 1), lobby=f'{{"id":"{gid}","s":"{status}"}}'.encode(),
                  listing=Listing(status, variant, at, prev)).ok


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
