"""Caps on concurrent open streams (SSE and long-polls), per token and per client address.

Each open stream holds a lease in two bounded sets in the store (its token's, its address's),
shared by every API process. A process renews the leases it holds every ``renew_s``; a lease
that is not renewed (its process crashed) runs out after ``ttl_ms``, so a slot is freed on close
or within ``ttl_ms`` of a crash; releases are batched. Beyond a cap the stream is refused with 429 ``rate_limited``.
"""
from __future__ import annotations

import logging
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Any, Callable

from service.app.errors import rate_limited

log = logging.getLogger("meow.streams")


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True, slots=True)
class Lease:
    member: str
    names: tuple[str, ...]


class StreamSlots:
    def __init__(self, store: Any, per_token: int, per_address: int, ttl_ms: int = 30_000,
                 renew_s: float = 10.0, clock: Callable[[], int] = now_ms) -> None:
        self.store = store
        self.per_token = per_token
        self.per_address = per_address
        self.ttl_ms = ttl_ms
        self.renew_s = renew_s
        self.clock = clock
        self.flush_s = 0.2
        self._held: dict[str, Lease] = {}
        self._releasing: list[tuple[str, str]] = []
        self._kick = threading.Event()
        self._lock = threading.Lock()
        self._renewer: threading.Thread | None = None

    def acquire(self, token_hash: str | None, address: str) -> Lease:
        """A slot in the token's and the address's sets, or 429 (nothing held) when either is full."""
        member = uuid.uuid4().hex
        wanted = [("addr", address, self.per_address)]
        if token_hash:
            wanted.insert(0, ("tok", token_hash[:32], self.per_token))
        names: list[str] = []
        for kind, ident, limit in wanted:
            name = self.store.lease_name(kind, ident)
            if not self.store.lease_acquire(name, member, limit, self.clock(), self.ttl_ms):
                self.store.lease_release_many([(held, member) for held in names])
                what = "this token" if kind == "tok" else "this client address"
                raise rate_limited(f"{what} already holds {limit} open event streams; close one first", 5)
            names.append(name)
        lease = Lease(member, tuple(names))
        with self._lock:
            self._held[member] = lease
        self._start()
        return lease

    def release(self, lease: Lease) -> None:
        """Give the slots back: batched with other closes within ``flush_s`` (one pipeline, not a
        round trip per stream: thousands of streams may close at once)."""
        with self._lock:
            self._held.pop(lease.member, None)
            self._releasing.extend((name, lease.member) for name in lease.names)
        self._kick.set()

    def held(self) -> int:
        with self._lock:
            return len(self._held)

    def renew(self) -> None:
        """Extend every lease this process holds, 500 at a time (yielding between chunks)."""
        with self._lock:
            pairs = [(name, lease.member) for lease in self._held.values() for name in lease.names]
        for i in range(0, len(pairs), 500):
            self.store.lease_renew(pairs[i:i + 500], self.clock(), self.ttl_ms)
            time.sleep(0)  # under gevent: let the streams run between chunks

    def flush(self) -> None:
        with self._lock:
            pairs, self._releasing = self._releasing, []
        for i in range(0, len(pairs), 500):
            self.store.lease_release_many(pairs[i:i + 500])

    def _start(self) -> None:
        if self._renewer is not None:
            return
        with self._lock:
            if self._renewer is not None:
                return
            self._renewer = threading.Thread(target=self._loop, name="stream-leases", daemon=True)
        self._renewer.start()

    def _loop(self) -> None:
        renewed = time.monotonic()
        while True:
            self._kick.wait(self.flush_s)
            self._kick.clear()
            time.sleep(self.flush_s)  # gather the closes of this moment into one batch
            try:
                self.flush()
                if time.monotonic() - renewed >= self.renew_s:
                    renewed = time.monotonic()
                    self.renew()
            except Exception:  # noqa: BLE001 - Redis may be away; leases outlive a short outage
                log.warning("stream lease upkeep failed", exc_info=True)
