"""The dispatcher: moves due follow-ups from the store's due sets into RQ under their ids."""
from __future__ import annotations

import logging
import math
import queue as queue_mod
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Protocol

from rq import Queue
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus

from service.app import table_meta
from service.app.followups import BOTS_ONLY
from service.app.table_meta import Meta
from service.eventstore.contract import SHARDS
from service.eventstore.ports import DueQueue, Tokens
from service.games.kernel.due import Lane
from service.settings import Settings
from workers.fair import FairLine

log = logging.getLogger("meow.dispatcher")
TASK = "workers.tasks.run_due"
LANES: tuple[Lane, ...] = tuple(Lane)  # a follow-up's payload names its lane ("lane"); absent means fast
INLINE_BACKLOG = 64  # bots-only turns waiting for the dispatcher's own thread before more go to RQ
SWEEP_MS = 1000  # every shard visited at least this often (and leases that ran out put back)


class DispatchStore(DueQueue, Tokens, Protocol):
    """What the dispatcher uses of the store: the due queue, and the tables' owners (``Tokens``:
    "meta:owner") for the fair search line."""


def _due_by(at: int | None, now: int) -> bool:
    return at is not None and at <= now


def now_ms() -> int:
    return int(time.time() * 1000)


class Dispatcher:
    """Claims due work under a lease (so N dispatchers never double-enqueue) and enqueues it.

    Work whose lease runs out without ``finish_due`` (a killed worker) is put back and
    dispatched again; jobs are idempotent, so a re-run of finished work does nothing.
    """

    def __init__(self, store: DispatchStore, queues: dict[str, Queue], lease_ms: int = 10_000,
                 clock: Callable[[], int] = now_ms, settings: Settings | None = None,
                 inline: Callable[[dict, str, str], object] | None = None) -> None:
        self.store = store
        self.inline = inline  # runs a bots-only table's bot turn in this process, off RQ (``_run_inline``)
        self._inline_pool: queue_mod.SimpleQueue[tuple[str, str, dict]] | None = None
        self._inline_pending = 0
        self._inline_lock = threading.Lock()
        self.queues = queues  # lane -> queue (LANES)
        self.queue = queues[Lane.FAST]
        self.lease_ms = lease_ms
        self.clock = clock
        self._next_sweep = 0  # when every shard is next visited (and expired leases put back)
        self._next: dict[str, int | None] = {}  # shard -> its earliest due time at its last visit
        self._woken: set[str] = set()  # shards whose wake-up was pushed since the last tick
        self._woken_lock = threading.Lock()
        cfg = settings or Settings()
        self.search_workers = max(1, cfg.search_workers)
        self.line = FairLine(self._owner_of, cfg.search_slice_ms, cfg.search_min_ms, cfg.search_idle_ms)
        self._owners: OrderedDict[str, str] = OrderedDict()

    def tick(self) -> int:
        """One pass over the shards that may hold due work: every shard once a second (the sweep,
        which also puts back leases that ran out), else only those woken by an append and those
        whose kept next due time has come. Each shard visited has its due work claimed and its next
        due time read and planned in one step (``plan_next``), so an append wakes the dispatcher only
        for work due before that look. A shard whose node fails is logged and skipped, never the
        others (a cluster's primary away stops its own shards' work only)."""
        now = self.clock()
        sweep = now >= self._next_sweep
        if sweep:
            self._next_sweep = now + SWEEP_MS
            shards: Iterable[str] = SHARDS
        else:
            with self._woken_lock:
                woken, self._woken = self._woken, set()
            shards = [s for s in SHARDS if s in woken or _due_by(self._next.get(s), now)]
        sent = 0
        for shard in shards:
            try:
                if sweep:
                    self.store.recover_expired(shard, now)
                for claimed in self.store.claim_due(shard, now, self.lease_ms):
                    payload = dict(claimed.payload)
                    if payload.get("lane") == Lane.SEARCH and Lane.SEARCH in self.queues:
                        self.line.put(shard, claimed.job_id, payload, now)  # released in fair order below
                    else:
                        sent += self._enqueue(shard, claimed.job_id, payload)
                self._next[shard] = self.store.plan_next(shard, self._next_sweep, 2 * SWEEP_MS + self.lease_ms)
            except Exception:  # that shard's node may be away: the next sweep retries it
                self._next[shard] = None
                log.warning("dispatching shard %s failed", shard, exc_info=True)
        return sent + self._release(now)

    def _release(self, now: int) -> int:
        """Release lined-up searches while a search worker can take one (one queued per worker),
        and keep the leases of those still in line."""
        sent, queue = 0, self.queues.get(Lane.SEARCH)
        while self.line and queue is not None and queue.count < self.search_workers:
            w = self.line.take(now, self.search_workers)
            assert w is not None  # the line is not empty
            sent += self._enqueue(w.shard, w.job_id, w.payload)
        stale: dict[str, list[str]] = {}
        for w in self.line.held():
            if now - w.claimed_at >= self.lease_ms // 2:
                stale.setdefault(w.shard, []).append(w.job_id)
                w.claimed_at = now
        for shard, ids in stale.items():
            try:
                self.store.extend_due(shard, ids, now + self.lease_ms)
            except Exception:  # that shard's node away: its leases run out and the work comes back
                log.warning("renewing search leases on shard %s failed", shard, exc_info=True)
        return sent

    def _owner_of(self, game_id: str) -> str:
        """The table's owner (its creator's network, hashed), cached; "-" for a table without one."""
        if game_id in self._owners:
            self._owners.move_to_end(game_id)
            return self._owners[game_id]
        raw = table_meta.get(self.store, game_id, Meta.OWNER) if game_id else None
        owner = raw.decode() if isinstance(raw, bytes) else str(raw) if raw else "-"
        self._owners[game_id] = owner
        if len(self._owners) > 4096:
            self._owners.popitem(last=False)
        return owner

    def _enqueue(self, shard: str, job_id: str, payload: dict) -> int:
        if self.inline is not None and payload.get(BOTS_ONLY) and payload.get("lane", Lane.FAST) == Lane.FAST \
                and self._run_inline(shard, job_id, payload):
            return 1
        queue = self.queues.get(payload.get("lane", Lane.FAST), self.queue)
        timeout = max(1, self.lease_ms // 1000)
        if payload.get("timeout_s"):  # a job that names its own timeout (a webhook attempt's), within its lease
            timeout = max(1, min(timeout, math.ceil(float(payload["timeout_s"]))))
        for _ in range(2):
            try:
                queue.enqueue_call(TASK, args=(payload, shard, job_id), job_id=job_id, unique=True,
                                        result_ttl=0, failure_ttl=3600, timeout=timeout)
                return 1
            except DuplicateJobError:
                if not self._clear_dead(job_id):
                    return 0  # the same job is queued or running; its finish releases the lease
        return 0

    def _run_inline(self, shard: str, job_id: str, payload: dict) -> bool:
        """A bot's turn at a bots-only table (it answers at once: an easy or medium bot) run on this
        process's own thread, off RQ: no RQ job, no queue, no registries (issue 39: RQ's bookkeeping
        cost more than the move). Its lease is held and renewed and released as an RQ job's is
        (``workers.tasks.run_due``); a process that dies leaves the lease to run out and the work is
        dispatched again. Bounded: with ``INLINE_BACKLOG`` turns waiting, the turn goes to RQ."""
        with self._inline_lock:
            if self._inline_pending >= INLINE_BACKLOG:
                return False
            self._inline_pending += 1
            if self._inline_pool is None:  # a daemon thread, not an executor: a stopping process never
                # waits for turns still lined up here (their leases run out and they are dispatched again)
                self._inline_pool = queue_mod.SimpleQueue()
                threading.Thread(target=self._inline_loop, args=(self._inline_pool,), name="bots-only",
                                 daemon=True).start()
        self._inline_pool.put((shard, job_id, payload))
        return True

    def _inline_loop(self, lined: queue_mod.SimpleQueue[tuple[str, str, dict]]) -> None:
        while True:
            self._inline_one(*lined.get())

    def _inline_one(self, shard: str, job_id: str, payload: dict) -> None:
        try:
            assert self.inline is not None
            self.inline(payload, shard, job_id)
        except Exception:  # its lease kept: dispatched again once it runs out
            log.warning("bots-only turn %s failed", job_id, exc_info=True)
        finally:
            with self._inline_lock:
                self._inline_pending -= 1

    def _clear_dead(self, job_id: str) -> bool:
        """A job that died (its work-horse killed, or it failed) blocks its id: remove it to re-run.

        Dead: failed, stopped or cancelled; ``started`` longer ago than its lease (its runner refreshes
        ``started_at`` while it runs, RQ's own workers run it within its lease); or ``queued`` in no
        queue for longer than its lease (a worker SIGKILLed between taking it and starting it leaves it
        in RQ's intermediate queue, which RQ's own clean-up empties only after two passes minutes apart).
        Only called once the job's due lease ran out unrenewed, so a live job is never taken."""
        conn = self.queue.connection
        try:
            job = Job.fetch(job_id, connection=conn, serializer=self.queue.serializer)
        except NoSuchJobError:
            return True
        status = job.get_status(refresh=True)
        dead = status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED) \
            or (status == JobStatus.STARTED and self._older(job.started_at)) \
            or (status == JobStatus.QUEUED and self._stranded(job))
        if dead:
            job.delete()  # (also takes it out of its queue and registries)
            log.warning("job %s (%s) lost with its worker: dispatched again", job_id, status)
            return True
        return False

    def _older(self, at: datetime | None) -> bool:
        """Whether ``at`` (RQ's naive UTC) lies more than a lease ago."""
        return at is not None and (self.clock() - at.replace(tzinfo=UTC).timestamp() * 1000) > self.lease_ms

    def _stranded(self, job: Job) -> bool:
        """A ``queued`` job in no queue (its queue's list, nor being started) enqueued more than a lease
        ago: taken from its queue by a process that died before it started it."""
        if not self._older(job.enqueued_at):
            return False
        conn, queue_key = self.queue.connection, f"{Queue.redis_queue_namespace_prefix}{job.origin}"
        if conn.lpos(queue_key, job.id) is not None:
            return False
        conn.lrem(f"{queue_key}:intermediate", 0, job.id)
        return True

    def seconds_to_next(self) -> float:
        """Until the earliest kept due time, the next sweep, or a look for a free search worker
        (searches in line): no Redis call."""
        nexts = [n for n in self._next.values() if n is not None]
        nexts.append(self._next_sweep)
        if self.line:  # searches in line: look for a free search worker again soon
            nexts.append(self.clock() + 10)
        return max(0.0, min(SWEEP_MS / 1000, (min(nexts) - self.clock()) / 1000))

    def woken(self, shard: str) -> None:
        """An append (or ``schedule``) pushed the shard's wake-up: visit it on the next tick."""
        with self._woken_lock:
            self._woken.add(shard)

    def run(self, stop: threading.Event) -> None:
        """Loop until ``stop``: dispatch, then sleep until the next due time, the next sweep or a
        wake-up (which names its shard).

        Appends push a wake-up onto their shard's list; one thread per shard waits on it (a wait on
        all the shards at once would be a multi-slot command, which a Redis Cluster refuses)."""
        woken = threading.Event()
        for shard in SHARDS:
            threading.Thread(target=self._watch, args=(shard, stop, woken), name=f"wake-{shard}",
                             daemon=True).start()
        while not stop.is_set():
            try:
                woken.clear()  # (before the tick: a wake-up pushed while it runs cuts the next wait short)
                self.tick()
                wait = self.seconds_to_next()
                if wait > 0:
                    woken.wait(wait)
            except Exception:  # keep dispatching; Redis may come back
                log.exception("dispatcher tick failed")
                stop.wait(0.5)

    def _watch(self, shard: str, stop: threading.Event, woken: threading.Event) -> None:
        while not stop.is_set():
            try:
                if self.store.wait_wake(shard, 1.0):
                    self.woken(shard)
                    woken.set()
            except Exception:  # noqa: BLE001 - Redis may be down: the main loop retries and logs
                stop.wait(0.5)
