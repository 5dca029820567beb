"""The hooks lane's runner (docs/integrators.md "How it runs"): webhook deliveries wait on receivers,
so they run on threads of their own. A threaded lane (workers/lane_runner.py): ``hook_threads``
threads of the worker process run its jobs (a fan-out, or one attempt of one delivery) through the same
task as every due job (workers/tasks.py ``run_due``: its lease released when done), shared round robin
across the API keys that own the endpoints: while another key's delivery waits, one key's receivers
hold at most ``hook_threads - 1`` threads; alone a key may use them all, so its attempts to different
endpoints go out at once. A running attempt's lease is kept for its job timeout (its outbound deadline
plus a margin, service/app/webhooks.py ``job_timeout_s``); a job lost with its process comes back
through its due lease (the dispatcher's watchdog), and its attempt is then counted as interrupted."""
from __future__ import annotations

from typing import Any

from rq import Queue

from service.settings import Settings
from workers.lane_runner import ThreadedLane


def key_of(payload: dict[str, Any], *_: Any, **__: Any) -> str:
    """The API key owning the endpoint (or the table) a hooks-lane job serves ("" when unknown)."""
    from service.app import webhook_jobs
    from workers.tasks import _service

    return webhook_jobs.owner_of_job(_service(), payload)


def hooks_lane(queue: Queue, settings: Settings, run: Any = None) -> ThreadedLane:
    """The hooks lane over ``queue`` (``run``: workers.tasks.run_due unless given)."""
    from service.app.webhooks import job_timeout_s

    if run is None:
        from workers.tasks import run_due as run
    return ThreadedLane(queue, settings.hook_threads, run, key_of, name="hooks", lease_ms=settings.lease_ms,
                        max_run_s=job_timeout_s(settings))
