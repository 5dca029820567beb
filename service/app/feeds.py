"""Live feeds: one reader per shard and process fans each game's new events out to its streams.

A process runs one ``FeedHub``. Each shard's reader blocks on that shard's append feed (the
append script adds ``(game, version)`` to it), reads a watched game's new events once, and hands
the same ``Batch`` to every open stream of the game. A batch renders each event once per distinct
viewer seat, so a thousand spectators cost one redaction. Each ``Subscription`` consumes its batches
in order, applies who its caller is at every event (``caller_after``: a revoked seat ends the
stream, an owner who lost his seat goes on seatless) and reads any gap from the store itself, so
no frame is lost, duplicated or rendered for an identity the caller no longer has. A subscriber that
falls ``buffer`` batches behind is cut off (it resumes with ``Last-Event-ID``). A periodic resync
compares the watched games' versions with the store, so a lost notification (a reader error, a
Redis restart) delays a frame by at most ``resync_s``.

The hub uses ``threading``: real threads under gthread or the tests, greenlets under gevent.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol

import orjson

from service.app.auth import Caller, caller_after
from service.app.redaction import Viewer, project_event
from service.eventstore.contract import SHARDS
from service.eventstore.ports import AppendFeed, EventLog
from service.games.kernel.model import Event

log = logging.getLogger("meow.feeds")
CHUNK = 500


def render(event: Event, seat: int | None) -> bytes:
    """The event as JSON, redacted for a viewer in ``seat`` (None: a spectator or an auditor)."""
    return orjson.dumps(project_event(event, Viewer(seat=seat)), option=orjson.OPT_NON_STR_KEYS)


class Batch:
    """New events of one game, shared by all its subscribers; renders once per viewer seat."""

    __slots__ = ("_rendered", "events")

    def __init__(self, events: list[Event]) -> None:
        self.events = events
        self._rendered: dict[tuple[int, int | None], bytes] = {}

    def render(self, i: int, seat: int | None) -> bytes:
        key = (i, seat)
        out = self._rendered.get(key)
        if out is None:
            out = self._rendered[key] = render(self.events[i], seat)
        return out


@dataclass(frozen=True, slots=True)
class Item:
    """What a stream sends: an event (``kind`` "event"), "revoked" or "overflow"."""

    kind: str
    seq: int = 0
    type: str = ""
    data: bytes = b""


@dataclass(eq=False)
class Watch:
    game_id: str
    cursor: int  # the newest seq handed to the subscribers
    subs: set[Subscription] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Subscription:
    """One open stream or long-poll of one caller on one game."""

    def __init__(self, hub: FeedHub, watch: Watch, caller: Caller, after: int, buffer: int) -> None:
        self.hub, self.watch, self.caller, self.last_seq = hub, watch, caller, after
        self.buffer = buffer
        self._queue: deque[Batch] = deque()
        self._ready = threading.Event()
        self.ended = False  # revoked, overflowed or closed
        self.overflowed = False

    # called by the hub
    def push(self, batch: Batch) -> None:
        if self.ended:
            return
        if len(self._queue) >= self.buffer:
            self.overflowed = self.ended = True
            self.hub.unsubscribe(self)
        else:
            self._queue.append(batch)
        self._ready.set()

    # called by the stream
    def wait(self, timeout_s: float) -> bool:
        """Block until a batch (or the cut-off) arrives or ``timeout_s`` passes."""
        return bool(self._queue) or self.overflowed or self._ready.wait(timeout_s)

    def newest(self) -> int:
        """The newest seq among the batches waiting to be consumed (0 if none)."""
        return max((b.events[-1].seq for b in list(self._queue)), default=0)

    def drop(self) -> None:
        """Forget what is waiting (a waiter that only needed to know)."""
        self._ready.clear()
        self._queue.clear()

    def backlog(self, to: int | None = None) -> tuple[list[Item], bool]:
        """The next chunk of events after ``last_seq`` (up to ``to``) read from the store, in
        order, and whether more may follow."""
        out: list[Item] = []
        if self.ended or (to is not None and self.last_seq >= to):
            return out, False
        count = CHUNK if to is None else min(CHUNK, to - self.last_seq)
        chunk = [s.event for s in self.hub.store.read_stored(self.watch.game_id, after=self.last_seq, count=count)]
        for e in chunk:
            if not self._emit(e, partial(render, e), out):
                return out, False
        return out, len(chunk) == count

    def catch_up(self, to: int) -> list[Item]:
        out: list[Item] = []
        more = True
        while more:
            items, more = self.backlog(to)
            out += items
        return out

    def poll(self, timeout_s: float) -> list[Item]:
        """Whatever arrived (waiting up to ``timeout_s`` for something), as items in order."""
        if not self._queue and not self.overflowed:
            self._ready.wait(timeout_s)
        self._ready.clear()
        out: list[Item] = []
        while self._queue:
            batch = self._queue.popleft()
            first = batch.events[0].seq
            if first > self.last_seq + 1:  # a gap (this stream joined late, or a lost notification)
                out += self.catch_up(first - 1)
            for i, e in enumerate(batch.events):
                if e.seq <= self.last_seq:
                    continue
                if not self._emit(e, partial(batch.render, i), out):
                    return out
        if self.overflowed:
            out.append(Item("overflow", self.last_seq))
        return out

    def _emit(self, event: Event, rendered: Callable[[int | None], bytes], out: list[Item]) -> bool:
        """Append the event as the caller now may see it; False once the caller's token is revoked."""
        nxt = caller_after(self.caller, event)
        self.last_seq = event.seq
        if nxt is None:
            out.append(Item("event", event.seq, event.type, rendered(None)))
            out.append(Item("revoked", event.seq))
            self.ended = True
            self.hub.unsubscribe(self)
            return False
        self.caller = nxt
        out.append(Item("event", event.seq, event.type, rendered(nxt.seat)))
        return True

    def close(self) -> None:
        self.ended = True
        self.hub.unsubscribe(self)

    def hang_up(self) -> None:
        """The client went away: end the stream now (its consumer wakes and returns)."""
        self.close()
        self._ready.set()


class FeedSource(EventLog, AppendFeed, Protocol):
    """What a hub reads of the store: the games' events, and the shards' append feed."""


class FeedHub:
    """Per process: readers per shard, the watched games, their subscribers."""

    def __init__(self, store: FeedSource, *, buffer: int = 256, block_ms: int = 5000, resync_s: float = 5.0,
                 shards: Iterable[str] = SHARDS) -> None:
        self.store = store
        self.buffer = buffer
        self.block_ms = block_ms
        self.resync_s = resync_s
        self.shards = tuple(shards)
        self._watches: dict[str, Watch] = {}
        self._lock = threading.Lock()
        self._started = False
        self._stop = threading.Event()

    # ------------------------------------------------------------------ subscribers
    def subscribe(self, game_id: str, caller: Caller, after: int) -> Subscription:
        self._start()
        cursor: int | None = None
        while True:
            with self._lock:
                watch = self._watches.get(game_id)
                if watch is None and cursor is not None:
                    watch = self._watches[game_id] = Watch(game_id, cursor)
                if watch is not None:
                    sub = Subscription(self, watch, caller, after, self.buffer)
                    watch.subs.add(sub)
                    return sub
            cursor = self.store.version(game_id)  # a new watch starts at the game's version now

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            sub.watch.subs.discard(sub)
            if not sub.watch.subs and self._watches.get(sub.watch.game_id) is sub.watch:
                del self._watches[sub.watch.game_id]

    def wait(self, game_id: str, after: int, timeout_s: float) -> bool:
        """A long-poll's wait: True once the game has an event after ``after`` (no own XREAD)."""
        sub = self.subscribe(game_id, Caller("spectator"), after)
        deadline = time.monotonic() + timeout_s
        try:
            if self.store.version(game_id) > after:  # appended before this waiter registered
                return True
            while (left := deadline - time.monotonic()) > 0:
                if sub.wait(left) and sub.newest() > after:  # (a lagging batch may end before ``after``)
                    return True
                sub.drop()
            return False
        finally:
            sub.close()

    # ------------------------------------------------------------------ delivery
    def _advance(self, watch: Watch) -> None:
        """Read the game's events past the watch's cursor once and hand them to its subscribers."""
        with watch.lock:
            events = self.store.read(watch.game_id, after=watch.cursor)
            if not events:
                return
            watch.cursor = events[-1].seq
            batch = Batch(events)
            with self._lock:
                subs = list(watch.subs)
            for sub in subs:
                sub.push(batch)

    def _shrunk(self, watch: Watch) -> None:
        """The store holds fewer events than were handed out (a failover lost the last writes):
        cut every stream of the game off (each resumes with ``Last-Event-ID`` from the store's
        events) and forget the watch, so that the next one starts at the store's version."""
        log.warning("%s: the store is behind the live feed at %d; cutting its streams off", watch.game_id, watch.cursor)
        with self._lock:
            subs = list(watch.subs)
        for sub in subs:
            sub.overflowed = sub.ended = True
            self.unsubscribe(sub)
            sub._ready.set()
        with self._lock:
            if self._watches.get(watch.game_id) is watch:
                del self._watches[watch.game_id]

    def _start(self) -> None:
        if self._started:
            return
        with self._lock:
            if self._started:
                return
            self._started = True
        for shard in self.shards:
            threading.Thread(target=self._read_shard, args=(shard,), name=f"feed-{shard}", daemon=True).start()
        threading.Thread(target=self._resync, name="feed-resync", daemon=True).start()

    def _read_shard(self, shard: str) -> None:
        last: str | None = None
        while not self._stop.is_set():
            try:
                if last is None:
                    last = self.store.feed_head(shard)
                last, notes = self.store.feed_read(shard, last, self.block_ms)
                newest: dict[str, int] = {}
                for gid, version in notes:
                    newest[gid] = max(version, newest.get(gid, 0))
                for gid, version in newest.items():
                    watch = self._watches.get(gid)
                    if watch is not None and version > watch.cursor:
                        self._advance(watch)
            except Exception:  # Redis may be away: read on from the same id
                log.warning("feed reader for shard %s failed; retrying", shard, exc_info=True)
                self._stop.wait(1.0)

    def _resync(self) -> None:
        while not self._stop.wait(self.resync_s):
            try:
                with self._lock:
                    watches = list(self._watches.values())
                for i in range(0, len(watches), CHUNK):
                    part = watches[i:i + CHUNK]
                    versions = self.store.versions([w.game_id for w in part])
                    for w in part:
                        if versions.get(w.game_id, 0) > w.cursor:
                            self._advance(w)
                        elif versions.get(w.game_id, 0) < w.cursor:
                            self._shrunk(w)
            except Exception:
                log.warning("feed resync failed", exc_info=True)

    def stop(self) -> None:
        self._stop.set()
