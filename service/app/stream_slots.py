"""Caps on concurrent open streams (SSE and long-polls), per token and per client address prefix.

Each open stream holds a lease in two bounded sets in the store (its token's, its address's: the
API passes the client's prefix, IPv4 /24 and IPv6 /64 by default, api/client.py ``client_prefix``),
shared by every API process. Beyond a cap the stream is refused with 429 ``rate_limited``.

- **A closed stream's slot is free when the close returns.** ``release`` gives the slots back in
  the caller's own store call, so a client that closes and reopens at once (a reconnect,
  back-to-back long-polls) is never refused because of its own last stream. Releases that arrive
  while another is on its way to the store join the next call (one pipeline for a crowd of closes,
  never a refusal: each caller waits for its own batch).
- **A lease is all or nothing.** When the second set refuses or raises (its Redis node is away),
  the first slot is given back before ``acquire`` answers.
- **A release that fails is retried, never dropped.** When the store is away, the pairs wait in a
  queue that the upkeep thread retries every ``retry_s`` until it succeeds. The queue keeps at
  most ``retry_cap`` pairs and drops the oldest with a log line: such a lease is no longer
  renewed, so it runs out by itself within ``ttl_ms`` anyway.
- **A crash frees within ``ttl_ms``.** The upkeep thread renews every lease this process holds
  every ``renew_s``; a crashed process's leases run out after ``ttl_ms``.
"""
from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from service.app.errors import rate_limited
from service.eventstore.ports import Leases

log = logging.getLogger("meow.streams")
RETRY_AFTER_S = 5
"""``Retry-After`` of a refused stream: a slot is free as soon as one of the holder's streams closes
(a long-poll within its ``wait``, at most 30 s), so a short wait, not the rate limiter's window."""
Pair = tuple[str, str]  # (lease set name, member)


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True, slots=True)
class Lease:
    member: str
    names: tuple[str, ...]


@dataclass(slots=True)
class _Batch:
    """Releases on their way to the store in one call; ``done`` once that call has returned."""
    pairs: list[Pair] = field(default_factory=list)
    done: bool = False


class StreamSlots:
    def __init__(self, store: Leases, per_token: int, per_address: int, ttl_ms: int = 30_000,
                 renew_s: float = 10.0, clock: Callable[[], int] = now_ms, retry_s: float = 1.0,
                 retry_cap: int = 50_000) -> None:
        self.store = store
        self.per_token = per_token
        self.per_address = per_address
        self.ttl_ms = ttl_ms
        self.renew_s = renew_s
        self.clock = clock
        self.retry_s = retry_s
        self.retry_cap = retry_cap
        self._held: dict[str, Lease] = {}
        self._retry: deque[Pair] = deque()
        self._lock = threading.Lock()
        self._sent = threading.Condition(self._lock)  # a batch reached the store
        self._open: _Batch | None = None  # the batch that releases join now
        self._sending = False  # a batch is on its way to the store
        self._kick = threading.Event()
        self._upkeep: threading.Thread | None = None

    def acquire(self, token_hash: str | None, address: str, key: tuple[str, int] | None = None) -> Lease:
        """A slot in the token's and the address's sets, or 429 (nothing held) when either is full;
        ``key``: (an API key's id, its cap) counts the stream against the key instead of the address."""
        member = uuid.uuid4().hex
        wanted = [("key", key[0], key[1]) if key is not None else ("addr", address, self.per_address)]
        if token_hash:
            wanted.insert(0, ("tok", token_hash[:32], self.per_token))
        taken: list[str] = []
        refused: tuple[str, int] | None = None
        try:
            for kind, ident, limit in wanted:
                name = self.store.lease_name(kind, ident)
                taken.append(name)  # before the call: one that raised may have taken it all the same
                if not self.store.lease_acquire(name, member, limit, self.clock(), self.ttl_ms):
                    taken.pop()
                    refused = (kind, limit)
                    break
        except BaseException:
            self._give_back([(held, member) for held in taken])
            raise
        if refused is not None:
            self._give_back([(held, member) for held in taken])
            what = {"tok": "this token", "key": "this API key"}.get(refused[0], "this client address's network")
            raise rate_limited(f"{what} already holds {refused[1]} open event streams; close one first",
                               RETRY_AFTER_S)
        lease = Lease(member, tuple(taken))
        with self._lock:
            self._held[member] = lease
        self._start()
        return lease

    def release(self, lease: Lease) -> None:
        """Give the slots back before returning (a second release of the same lease does nothing).
        Never raises: when the store is away, the upkeep thread retries."""
        with self._lock:
            if self._held.pop(lease.member, None) is None:
                return
        self._give_back([(name, lease.member) for name in lease.names])

    def held(self) -> int:
        with self._lock:
            return len(self._held)

    def pending(self) -> int:
        """Pairs whose release failed and waits for a retry."""
        with self._lock:
            return len(self._retry)

    def renew(self) -> None:
        """Extend every lease this process holds, 500 at a time (yielding between chunks)."""
        with self._lock:
            pairs = [(name, lease.member) for lease in self._held.values() for name in lease.names]
        for i in range(0, len(pairs), 500):
            self.store.lease_renew(pairs[i:i + 500], self.clock(), self.ttl_ms)
            time.sleep(0)  # under gevent: let the streams run between chunks

    def retry_releases(self) -> bool:
        """Send the failed releases again, 500 at a time; True once none is left."""
        while True:
            with self._lock:
                chunk = [self._retry.popleft() for _ in range(min(500, len(self._retry)))]
            if not chunk:
                return True
            try:
                self.store.lease_release_many(chunk)
            except BaseException as exc:  # Redis may be away: keep them, in order, for later
                self._requeue(chunk, front=True)
                log.warning("stream lease release retry failed; %d pending", self.pending(), exc_info=True)
                if not isinstance(exc, Exception):
                    raise  # a greenlet killed, an interrupt: the pairs are kept all the same
                return False

    def _give_back(self, pairs: list[Pair]) -> None:
        """Remove ``pairs`` from the store before returning: in the call on its way if one can take
        them (none is), else in the next, which this caller or another one waiting sends."""
        if not pairs:
            return
        with self._lock:
            batch = self._open = self._open or _Batch()
            batch.pairs.extend(pairs)
            while self._sending and not batch.done:
                self._sent.wait()
            if batch.done:
                return
            self._sending, self._open = True, None
        try:
            self.store.lease_release_many(batch.pairs)
        except BaseException as exc:  # Redis may be away: the upkeep thread retries
            self._requeue(batch.pairs, front=False)
            log.warning("stream lease release failed; %d pending a retry", self.pending(), exc_info=True)
            self._start()
            self._kick.set()
            if not isinstance(exc, Exception):
                raise  # a greenlet killed, an interrupt: the pairs are kept all the same
        finally:
            with self._lock:
                batch.done, self._sending = True, False
                self._sent.notify_all()

    def _requeue(self, pairs: list[Pair], front: bool) -> None:
        with self._lock:
            if front:
                self._retry.extendleft(reversed(pairs))
            else:
                self._retry.extend(pairs)
            dropped = 0
            while len(self._retry) > self.retry_cap:
                self._retry.popleft()
                dropped += 1
        if dropped:
            log.warning("stream lease retry queue full: dropped the %d oldest releases (they run out "
                        "within %d ms)", dropped, self.ttl_ms)

    def _start(self) -> None:
        if self._upkeep is not None:
            return
        with self._lock:
            if self._upkeep is not None:
                return
            self._upkeep = threading.Thread(target=self._loop, name="stream-leases", daemon=True)
        self._upkeep.start()

    def _loop(self) -> None:
        next_renew = time.monotonic() + self.renew_s
        while True:
            wait = self.retry_s if self.pending() else max(0.0, next_renew - time.monotonic())
            self._kick.wait(wait)
            self._kick.clear()
            self.retry_releases()
            if time.monotonic() >= next_renew:
                next_renew = time.monotonic() + self.renew_s
                try:
                    self.renew()
                except Exception:  # Redis may be away; leases outlive a short outage
                    log.warning("stream lease renewal failed", exc_info=True)
