"""A threaded lane runner (issue 37; docs/reliability.md, "Fair shares"): the runner of every lane whose
jobs wait on someone else (the remote lane's bot calls, the hooks lane's deliveries) or run long (the
arena lane's games), where one key's slow jobs must not hold another key's back.

A feeder thread takes the lane's RQ jobs from its queue (by id, as RQ's workers do) and lines each up
in a ``KeyShare`` (workers/key_share.py) under the API key it belongs to; ``threads`` runner threads
take them from there in fair order, round robin across keys: while another key waits, one key holds
at most ``threads - 1`` of them; alone it may use all. The feeder is bounded: it stops taking while
``lined_up`` jobs wait here, so the jobs left in Redis stay visible to the lane's other worker
processes; while its line is full it still looks at the first ``peek`` jobs in the queue and takes
the first one of each key that has nothing lined up here (so a key whose jobs fill the line never
hides another key's job behind them: that job is in line, and runs on the next thread freed).

Leases. Every job this process holds (lined up or running) is marked ``started`` in RQ, its
``started_at`` refreshed every third of ``lease_ms`` while it waits in line, and while it runs for at
most ``max_run_s``. A job whose process died stops being refreshed, so within a lease it looks dead
(a ``started`` job older than its lease) and is taken again: by the due dispatcher for the remote lane
(workers/dispatcher.py ``_clear_dead``, as before this runner), or, with ``retake=True``, by any
process of the lane (every runner notes its held jobs in a sorted set beside the queue,
``<queue key>:held``; an entry not refreshed for ``lease_ms`` is pushed back onto the queue, once).
A runner thread never dies of its job (every exception is logged), so a job lost with its thread
means a process lost.

Plugging a lane in (the remote lane, workers/remote_lane.py, is the worked example)::

    from workers.lane_runner import ThreadedLane

    def key_of(*args, **kwargs) -> str:   # the same arguments as ``run``: the job's args and kwargs
        return endpoint_key(args[0])       # the API key the job belongs to ("" / "-" for none)

    lane = ThreadedLane(queue, threads=settings.hook_threads, run=deliver, key_of=key_of, name="hooks",
                        lease_ms=settings.lease_ms, max_run_s=timeout_s + 5, retake=True)
    threads = lane.start(stop)   # daemon threads: the feeder and ``threads`` runners; stop.set() ends them

Jobs are enqueued as any RQ job (``queue.enqueue_call(TASK, args=..., job_id=...)``); the runner calls
``run(*job.args, **job.kwargs)`` (not the job's own function name, which RQ's workers would import)
and deletes the job when it returns or raises. ``key_of`` raising, or answering "", lines the job up
under ``ANONYMOUS``.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from rq import Queue
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.utils import utcformat

from workers.key_share import ANONYMOUS, KeyShare

log = logging.getLogger("meow.lane")


class ThreadedLane:
    """A feeder and ``threads`` runner threads serving one RQ queue, shared fairly across keys."""

    def __init__(self, queue: Queue, threads: int, run: Callable[..., Any], key_of: Callable[..., str], *,
                 name: str = "lane", lease_ms: int = 10_000, lined_up: int | None = None,
                 max_run_s: float = 0.0, retake: bool = False, peek: int = 32) -> None:
        self.queue = queue
        self.threads = max(1, threads)
        self.run = run
        self.key_of = key_of
        self.name = name
        self.lease_ms = max(100, lease_ms)
        self.lined_up = max(1, lined_up if lined_up is not None else self.threads)
        self.max_run_s = max_run_s
        self.retake = retake
        self.peek = peek
        self._lined: dict[str, int] = {}  # key -> its jobs lined up here
        self._keys: OrderedDict[str, str] = OrderedDict()  # job id -> its key (the queue's head, peeked)
        self.share: KeyShare[Job] = KeyShare(self.threads)
        self.held_key = f"{queue.key}:held"
        self._lock = threading.Lock()
        self._held: dict[str, tuple[Job, float | None]] = {}  # job id -> (job, when it started running)
        self._peeking = threading.Lock()
        self._room = threading.Event()  # a runner took a job: the feeder may take another

    # ------------------------------------------------------------------ threads
    def start(self, stop: threading.Event) -> list[threading.Thread]:
        out = [threading.Thread(target=self._feed, args=(stop,), name=f"{self.name}-feeder", daemon=True)]
        out += [threading.Thread(target=self._work, args=(stop,), name=f"{self.name}-{i}", daemon=True)
                for i in range(self.threads)]
        for t in out:
            t.start()
        return out

    def _feed(self, stop: threading.Event) -> None:
        beat = 0.0
        while not stop.is_set():
            try:
                if time.monotonic() - beat >= self.lease_ms / 3000:
                    beat = time.monotonic()
                    self.heartbeat()
                    if self.retake:
                        self.retake_dead()
                if self.share.waiting() >= self.lined_up:
                    self.feed_newcomers()
                    self._room.wait(0.25)
                    self._room.clear()
                    continue
                self.feed_one()
            except Exception:  # Redis away: look again shortly (leases bring lost work back)
                log.warning("%s lane: taking a job failed", self.name, exc_info=True)
                stop.wait(0.5)

    def feed_one(self) -> bool:
        """Take one job from the queue (waiting up to a second) and line it up under its key; False when
        none came."""
        got = self.queue.connection.blpop([self.queue.key], timeout=1)
        if got is None:
            return False
        job_id = got[1].decode() if isinstance(got[1], bytes) else str(got[1])
        try:
            job = Job.fetch(job_id, connection=self.queue.connection, serializer=self.queue.serializer)
        except NoSuchJobError:
            return False
        self._line_up(job, self._key(job))
        return True

    def feed_newcomers(self) -> int:
        """The line is full: take from the queue's first ``peek`` jobs the first one of every key with
        nothing lined up here (each taken with LREM, so a job another process took is not taken twice)."""
        with self._peeking:
            return self._newcomers()

    def _newcomers(self) -> int:
        conn, taken = self.queue.connection, 0
        seen: set[str] = set()
        for raw in conn.lrange(self.queue.key, 0, self.peek - 1):
            job_id = raw.decode() if isinstance(raw, bytes) else str(raw)
            key = self._keys.get(job_id)
            job = None
            if key is None:
                try:
                    job = Job.fetch(job_id, connection=conn, serializer=self.queue.serializer)
                except NoSuchJobError:
                    continue
                key = self._key(job)
                self._keys[job_id] = key
                if len(self._keys) > 4096:
                    self._keys.popitem(last=False)
            with self._lock:
                busy = self._lined.get(key, 0) > 0
            if busy or key in seen or not conn.lrem(self.queue.key, 1, job_id):
                continue
            seen.add(key)
            if job is None:
                try:
                    job = Job.fetch(job_id, connection=conn, serializer=self.queue.serializer)
                except NoSuchJobError:
                    continue
            self._line_up(job, key)
            taken += 1
        return taken

    def _key(self, job: Job) -> str:
        try:
            return self.key_of(*job.args, **job.kwargs) or ANONYMOUS
        except Exception:  # a job whose owner cannot be found: no key's share
            log.warning("%s lane: no key for job %s", self.name, job.id, exc_info=True)
            return ANONYMOUS

    def _line_up(self, job: Job, key: str) -> None:
        job_id = job.id
        self._keys.pop(job_id, None)
        job.started_at = datetime.now(UTC)
        job.save()
        job.set_status(JobStatus.STARTED)
        with self._lock:
            self._held[job_id] = (job, None)
            self._lined[key] = self._lined.get(key, 0) + 1
        if self.retake:
            self.queue.connection.zadd(self.held_key, {job_id: _now_ms()})
        self.share.put(key, job)

    def _work(self, stop: threading.Event) -> None:
        while not stop.is_set():
            taken = self.share.take(timeout_s=0.5)
            if taken is None:
                continue
            self._room.set()
            with self._lock:
                left = self._lined.get(taken.key, 0) - 1
                if left > 0:
                    self._lined[taken.key] = left
                else:
                    self._lined.pop(taken.key, None)
            try:
                self.serve(taken.item)
            finally:
                try:  # before its thread is free: a key that waits in Redis behind a full line is seen
                    self.feed_newcomers()
                except Exception:  # Redis away: the feeder takes it later
                    log.debug("%s lane: looking at the queue failed", self.name, exc_info=True)
                self.share.done(taken.key)

    def serve(self, job: Job) -> None:
        """Run one job and delete it (its id is free again); a job that raises is logged (its lease,
        if any, brings its work back)."""
        with self._lock:
            self._held[job.id] = (job, time.monotonic())
        try:
            self._touch([job.id])
            self.run(*job.args, **job.kwargs)
        except Exception:
            log.exception("%s lane: job %s failed", self.name, job.id)
        finally:
            with self._lock:
                self._held.pop(job.id, None)
            try:
                job.delete()
                if self.retake:
                    self.queue.connection.zrem(self.held_key, job.id)
            except Exception:  # Redis away: the lease ends it
                log.warning("%s lane: deleting job %s failed", self.name, job.id, exc_info=True)

    # ------------------------------------------------------------------ leases
    def heartbeat(self) -> None:
        """Refresh the lease of every job held here: lined up, or running for less than ``max_run_s``."""
        now = time.monotonic()
        with self._lock:
            ids = [i for i, (_, ran) in self._held.items() if ran is None or now - ran < self.max_run_s]
        self._touch(ids)

    def _touch(self, ids: list[str]) -> None:
        if not ids:
            return
        stamp = utcformat(datetime.now(UTC))
        pipe = self.queue.connection.pipeline(transaction=False)
        for job_id in ids:
            pipe.hset(Job.key_for(job_id), "started_at", stamp)
        if self.retake:
            pipe.zadd(self.held_key, dict.fromkeys(ids, _now_ms()))
        pipe.execute()

    def retake_dead(self) -> int:
        """Push back onto the queue the jobs whose runner stopped refreshing them (its process died)."""
        conn = self.queue.connection
        n = 0
        for raw in conn.zrangebyscore(self.held_key, "-inf", _now_ms() - self.lease_ms, start=0, num=100):
            job_id = raw.decode() if isinstance(raw, bytes) else str(raw)
            if not conn.zrem(self.held_key, job_id):
                continue  # another process took it back first
            if conn.exists(Job.key_for(job_id)):
                conn.hset(Job.key_for(job_id), "status", JobStatus.QUEUED.value)
                conn.lpush(self.queue.key, job_id)
                n += 1
                log.warning("%s lane: job %s lost with its process, taken again", self.name, job_id)
        return n


def _now_ms() -> int:
    return int(time.time() * 1000)
