"""The remote lane's runner (docs/remote-bots.md): remote bots' turns wait on their authors' servers, so
they never run on the fast or search lanes' RQ worker. A threaded lane (workers/lane_runner.py):
``remote_threads`` threads of the worker process run its jobs through the same task as every due job
(workers/tasks.py ``run_due``: its lease released when done), shared round robin across the API keys
that own the bots (a bot's turn and its health check belong to its owner's key): while another key's
bot waits, one key's bots hold at most ``remote_threads - 1`` threads. Each call has a total deadline
(service/outbound/http.py), and a slow bot holds at most its own calls (capped per bot and per host,
service/app/remote_bots.py), never another key's work. A job lost with its process comes back through
its due lease (the dispatcher's watchdog), as any due job."""
from __future__ import annotations

from typing import Any

from rq import Queue

from service.settings import Settings
from workers.lane_runner import ThreadedLane


def key_of(payload: dict[str, Any], *_: Any, **__: Any) -> str:
    """The API key owning the bot a remote-lane job calls ("" when the bot is gone)."""
    from service.app import remote_bots
    from workers.tasks import _service

    return remote_bots.owner_of_job(_service(), payload)


def remote_lane(queue: Queue, settings: Settings, run: Any = None) -> ThreadedLane:
    """The remote lane over ``queue`` (``run``: workers.tasks.run_due unless given)."""
    if run is None:
        from workers.tasks import run_due as run
    return ThreadedLane(queue, settings.remote_threads, run, key_of, name="remote", lease_ms=settings.lease_ms)
