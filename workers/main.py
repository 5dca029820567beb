"""`meow worker`: one RQ worker (JSON serializer) on chosen lanes, plus the dispatcher thread.

Work has three lanes (docs/architecture.md, "Fair workers"): ``fast`` (scoring, deals, timers, easy
and medium bots: milliseconds each), ``search`` (hard bots: a search of up to the table's budget) and
``remote`` (remote bots' calls), ``hooks`` (webhook deliveries) and ``arena`` (arena games, only when
asked). A worker takes its RQ lanes in priority order, so a fast worker never waits behind a search. The
remote, hooks and arena lanes are threaded lanes (workers/lane_runner.py: their threads shared round
robin across API keys: workers/remote_lane.py, workers/hooks_lane.py, ``arena_lane`` below), never this
process's RQ worker.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from rq import Queue, SimpleWorker, Worker
from rq.serializers import JSONSerializer

from service.arena_lane import ARENA, make_queue as arena_queue
from service.games.kernel.due import Lane
from service.settings import Settings
from service.wiring import build_store, queue_client
from workers.dispatcher import LANES, Dispatcher
from workers.lane_runner import ThreadedLane


def queue_name(settings: Settings, lane: str) -> str:
    return settings.queue_name if lane == Lane.FAST else f"{settings.queue_name}-{lane}"


def make_queues(settings: Settings) -> dict[str, Queue]:
    conn = queue_client(settings)
    return {lane: Queue(queue_name(settings, lane), connection=conn, serializer=JSONSerializer) for lane in LANES}


WORKER_LANES = (*LANES, ARENA)  # the arena lane is no follow-up's: a worker takes it only when asked


def arena_lane(queue: Queue, settings: Settings) -> ThreadedLane:
    """The arena lane: one arena step (one whole game) a job, ``arena_slots`` at once, shared across
    the arenas' keys. A step lost with its process is taken again by the lane (``retake``, once its
    lease runs out) and first resumes the game whose claim ran out unrenewed (service/app/arenas.py
    ``claim_lease_ms``)."""
    from service.arena_lane import key_of
    from workers.arena_tasks import run_arena

    return ThreadedLane(queue, settings.arena_slots, run_arena, key_of, name="arena", lease_ms=settings.lease_ms,
                        max_run_s=settings.arena_game_timeout_s, retake=True)


def run_worker(settings: Settings | None = None, burst: bool = False, lanes: tuple[str, ...] = tuple(Lane),
               dispatch: bool = True) -> None:
    settings = settings or Settings.from_env()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    unknown = [lane for lane in lanes if lane not in WORKER_LANES]
    if unknown or not lanes:
        raise SystemExit(f"meow worker: unknown lanes {unknown or lanes}; choose from {', '.join(WORKER_LANES)}")
    queues: dict[str, Queue] = {**make_queues(settings), ARENA: arena_queue(settings)}
    stop = threading.Event()
    if dispatch:
        store = build_store(settings)
        store.index_lobby()  # games listed before the per-status lobby indexes
        inline: Callable[[dict, str, str], object] | None = None
        if Lane.FAST in lanes:  # bots-only tables' bot turns run by the dispatcher itself, off RQ (issue 39)
            from workers.tasks import run_due

            inline = run_due
        dispatcher = Dispatcher(store, make_queues(settings), settings.lease_ms, settings=settings, inline=inline)
        threading.Thread(target=dispatcher.run, args=(stop,), name="dispatcher", daemon=True).start()
    threads: list[threading.Thread] = []
    if Lane.REMOTE in lanes:  # remote bots' calls: threads of their own, never this process's RQ worker
        from workers.remote_lane import remote_lane

        threads += remote_lane(queues[Lane.REMOTE], settings).start(stop)
    if Lane.HOOKS in lanes:  # webhook deliveries: threads of their own too, shared across keys
        from workers.hooks_lane import hooks_lane

        threads += hooks_lane(queues[Lane.HOOKS], settings).start(stop)
    if ARENA in lanes:  # arena games: ``arena_slots`` threads, shared across the arenas' keys
        threads += arena_lane(queues[ARENA], settings).start(stop)
    lanes = tuple(lane for lane in lanes if lane not in (Lane.REMOTE, Lane.HOOKS, ARENA))
    if not lanes:
        try:
            while not burst and all(t.is_alive() for t in threads):
                stop.wait(1.0)
        finally:
            stop.set()
        return
    cls = SimpleWorker if settings.worker_class == "simple" else Worker
    mine = [queues[lane] for lane in lanes]
    worker = cls(mine, connection=mine[0].connection, serializer=JSONSerializer)
    try:
        worker.work(burst=burst, logging_level="WARNING")
    finally:
        stop.set()
