"""The remote lane's runner (docs/remote-bots.md): remote bots' turns wait on their authors' servers, so
they never run on the fast or search lanes' RQ worker. ``threads`` threads of the worker process each
take one job at a time from the lane's own RQ queue and serve it through the same task as every due job
(workers/tasks.py ``run_due``: its lease released when done); a slow bot holds at most its own calls
(capped per bot and per host, service/app/remote_bots.py), never another table's work."""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from rq import Queue
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

log = logging.getLogger("meow.remote_lane")


class RemoteLane:
    """Threads serving one RQ queue, one job each at a time."""

    def __init__(self, queue: Queue, threads: int, run: Callable[..., Any]) -> None:
        self.queue = queue
        self.threads = max(1, threads)
        self.run = run  # (payload, shard, job_id) -> outcome: workers.tasks.run_due

    def start(self, stop: threading.Event) -> list[threading.Thread]:
        out = [threading.Thread(target=self._loop, args=(stop,), name=f"remote-{i}", daemon=True)
               for i in range(self.threads)]
        for t in out:
            t.start()
        return out

    def _loop(self, stop: threading.Event) -> None:
        conn = self.queue.connection
        while not stop.is_set():
            try:
                got = conn.blpop([self.queue.key], timeout=1)
                if got is None:
                    continue
                job_id = got[1].decode() if isinstance(got[1], bytes) else str(got[1])
                self.serve(job_id)
            except Exception:  # Redis away: look again shortly (the lease brings lost work back)
                log.warning("remote lane: taking a job failed", exc_info=True)
                stop.wait(0.5)

    def serve(self, job_id: str) -> None:
        """Run one job and delete it (its id is free again); a job that died with its process is
        cleared by the dispatcher once its lease runs out (it looks ``started``)."""
        try:
            job = Job.fetch(job_id, connection=self.queue.connection, serializer=self.queue.serializer)
        except NoSuchJobError:
            return
        try:
            job.started_at = datetime.now(UTC)
            job.save()
            job.set_status(JobStatus.STARTED)
            self.run(*job.args, **job.kwargs)
        except Exception:  # the lease stays held: the dispatcher sends the work again when it runs out
            log.exception("remote lane: job %s failed", job_id)
        finally:
            job.delete()
