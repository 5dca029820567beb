"""A running job renews its due lease (issue 39 item 4; docs/reliability.md, "Leases").

The dispatcher claims a due entry under a lease of ``lease_ms`` (workers/dispatcher.py); a job that
runs renews it every third of the lease, from one thread per process (``Renewals``): each job notes
itself when it starts and leaves when it ends, and the thread extends the leases of every job still
running in one call per shard (``extend_due``, which renews in-flight entries only). A job whose
process died stops being renewed, so its lease runs out within ``lease_ms`` and the dispatcher
dispatches it again (its RQ job, dead, is cleared: ``Dispatcher._clear_dead``). A job renews for at
most ``RENEW_FOR_S``: one that hangs longer is treated as lost (its lease runs out).
"""
from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Iterator
from typing import Protocol

log = logging.getLogger("meow.leases")
RENEW_FOR_S = 300.0


class Extends(Protocol):
    def extend_due(self, shard: str, job_ids: list[str], until: int) -> None: ...


class Renewals:
    """The jobs running in this process, and the thread renewing their leases."""

    def __init__(self, store: Extends, lease_ms: int, renew_for_s: float = RENEW_FOR_S) -> None:
        self.store, self.lease_ms, self.renew_for_s = store, max(300, lease_ms), renew_for_s
        self._running: dict[tuple[str, str], float] = {}  # (shard, job id) -> when it started (monotonic)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @contextlib.contextmanager
    def held(self, shard: str, job_id: str) -> Iterator[None]:
        """While the block runs, the lease of ``job_id`` is renewed."""
        with self._lock:
            self._running[(shard, job_id)] = time.monotonic()
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="lease-renewals", daemon=True)
                self._thread.start()
        try:
            yield
        finally:
            with self._lock:
                self._running.pop((shard, job_id), None)

    def renew(self) -> int:
        """Extend every running job's lease by ``lease_ms`` from now; how many were renewed."""
        now = time.monotonic()
        by_shard: dict[str, list[str]] = {}
        with self._lock:
            for (shard, job_id), started in self._running.items():
                if now - started < self.renew_for_s:
                    by_shard.setdefault(shard, []).append(job_id)
        until = int(time.time() * 1000) + self.lease_ms
        for shard, ids in by_shard.items():
            try:
                self.store.extend_due(shard, ids, until)
            except Exception:  # that shard's node away: the leases may run out, the work comes back
                log.warning("renewing leases on shard %s failed", shard, exc_info=True)
        return sum(len(ids) for ids in by_shard.values())

    def _loop(self) -> None:
        while True:
            time.sleep(self.lease_ms / 3000)
            self.renew()
