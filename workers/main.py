"""`meow worker`: one RQ worker (JSON serializer) plus the dispatcher thread."""
from __future__ import annotations

import logging
import threading

from rq import Queue, SimpleWorker, Worker
from rq.serializers import JSONSerializer

from service.settings import Settings
from service.wiring import build_store, redis_client
from workers.dispatcher import Dispatcher


def make_queue(settings: Settings) -> Queue:
    return Queue(settings.queue_name, connection=redis_client(settings.redis_url), serializer=JSONSerializer)


def run_worker(settings: Settings | None = None, burst: bool = False) -> None:
    settings = settings or Settings.from_env()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    queue = make_queue(settings)
    store = build_store(settings)
    stop = threading.Event()
    dispatcher = Dispatcher(store, queue, settings.lease_ms)
    wake = redis_client(settings.redis_url, socket_timeout=30)
    thread = threading.Thread(target=dispatcher.run, args=(stop, wake), name="dispatcher", daemon=True)
    thread.start()
    cls = SimpleWorker if settings.worker_class == "simple" else Worker
    worker = cls([queue], connection=queue.connection, serializer=JSONSerializer)
    try:
        worker.work(burst=burst, logging_level="WARNING")
    finally:
        stop.set()
