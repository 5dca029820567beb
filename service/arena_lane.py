"""The arena lane (docs/arenas.md): its RQ queue, the one task its jobs run, and the worker's
``Arenas`` (composed by service/wiring.py, the one composition root). Arena jobs are long (one whole game each), so only workers
started for this lane take them (``meow worker --queues arena``; ``meow run`` starts
MEOW_ARENA_WORKERS of them): a worker of the other lanes never waits behind an arena game. Each such
worker plays ``arena_slots`` games at once on threads (workers/lane_runner.py), shared round robin
across the arenas' API keys (``key_of``): while another key's arena waits, one key holds at most
``arena_slots - 1`` of them."""
from __future__ import annotations

import contextlib
from functools import lru_cache
from typing import Any

from service.settings import Settings

ARENA = "arena"  # the lane's name (``--queues``) and its queue's suffix
TASK = "workers.arena_tasks.run_arena"


def queue_name(settings: Settings) -> str:
    return f"{settings.queue_name}-{ARENA}"


def make_queue(settings: Settings) -> Any:
    from rq import Queue
    from rq.serializers import JSONSerializer

    from service.wiring import queue_client

    return Queue(queue_name(settings), connection=queue_client(settings), serializer=JSONSerializer)


def enqueuer(settings: Settings) -> Any:
    """``enqueue(arena_id, job_id)``: one step of the arena on its lane (a repeated id is queued once)."""
    queue: list[Any] = []

    def enqueue(arena_id: str, job_id: str) -> None:
        from rq.exceptions import DuplicateJobError

        if not queue:
            queue.append(make_queue(settings))
        with contextlib.suppress(DuplicateJobError):  # that step is queued or running already
            queue[0].enqueue_call(TASK, args=(arena_id,), job_id=job_id, unique=True, result_ttl=0,
                                  failure_ttl=3600, timeout=settings.arena_game_timeout_s)
    return enqueue


def key_of(arena_id: str, *_: Any, **__: Any) -> str:
    """The API key an arena step belongs to (its arena's key; "" when the arena is gone)."""
    rec = worker_arenas().arenas.get(str(arena_id))
    return rec.get("key", "") if rec else ""


@lru_cache(maxsize=1)
def worker_arenas() -> Any:
    """The worker process's ``Arenas`` (built once, from the environment, by the composition root)."""
    from service.wiring import build_arenas

    settings = Settings.from_env()
    return build_arenas(settings, enqueuer(settings))
