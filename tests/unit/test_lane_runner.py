"""workers/lane_runner.py on the real Redis: a threaded lane shares its threads across keys (a key whose
jobs hang holds back only itself), takes no more than it can line up, and a job lost with its process
is taken again."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from rq import Queue
from rq.job import Job
from rq.serializers import JSONSerializer

from workers.lane_runner import ThreadedLane

TASK = "workers.arena_tasks.run_arena"  # never imported by the runner: it calls the lane's own ``run``


@pytest.fixture
def queue(redis_url: str, key_prefix: str) -> Iterator[Queue]:
    yield Queue(f"{key_prefix}-lane", connection=redis.Redis.from_url(redis_url), serializer=JSONSerializer)
    time.sleep(0.6)  # the lane's threads stop (within half a second of ``stop``) before the prefix is cleaned


def enqueue(queue: Queue, key: str, n: int, tag: str = "") -> list[str]:
    ids = [f"{tag or key}-{i}" for i in range(n)]
    for job_id in ids:
        queue.enqueue_call(TASK, args=(key, job_id), job_id=job_id, result_ttl=0)
    return ids


def wait_for(what: Callable[[], bool], timeout_s: float = 20) -> bool:
    deadline = time.monotonic() + timeout_s
    while not what():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_a_key_whose_jobs_hang_leaves_a_thread_to_another_key(queue: Queue) -> None:
    release, first, ran, running = threading.Event(), threading.Event(), [], []

    def run(key: str, job_id: str) -> None:
        running.append(job_id)
        if key == "slow":
            (first if job_id == "slow-0" else release).wait(30)
        ran.append(job_id)

    enqueue(queue, "slow", 6)  # queued first: alone, they may take every thread
    lane = ThreadedLane(queue, 3, run, lambda key, _id: key, name="t", lease_ms=3000)
    stop = threading.Event()
    lane.start(stop)
    try:
        assert wait_for(lambda: len(running) == 3)
        assert all(j.startswith("slow") for j in running)  # alone: all three threads
        enqueue(queue, "quick", 4)
        assert wait_for(lambda: lane.share.waiting() >= 4)
        first.set()  # one slow job ends: its thread goes to the waiting key, and stays with it
        assert wait_for(lambda: sum(j.startswith("quick") for j in ran) == 4), (running, ran)
        slow = [i for i, j in enumerate(running) if j.startswith("slow")]
        assert len(slow) == 3 or slow[3] > running.index("quick-3"), running  # no fourth before quick's last
    finally:
        first.set()
        release.set()
        assert wait_for(lambda: len(ran) == 10)
        stop.set()


def test_while_another_key_waits_a_hanging_key_never_takes_the_last_thread(queue: Queue) -> None:
    release, ran, running = threading.Event(), [], []

    def run(key: str, job_id: str) -> None:
        running.append(job_id)
        if key == "slow":
            release.wait(30)
        ran.append(job_id)

    lane = ThreadedLane(queue, 3, run, lambda key, _id: key, name="t", lease_ms=3000)
    enqueue(queue, "slow", 2)
    enqueue(queue, "quick", 1)
    enqueue(queue, "slow", 4, tag="slow-late")
    enqueue(queue, "quick", 5, tag="quick-late")
    stop = threading.Event()
    lane.start(stop)
    try:  # the slow key holds two threads for good; every quick job runs on the third
        assert wait_for(lambda: sum(j.startswith("quick") for j in ran) == 6), (running, ran)
        slow = [i for i, j in enumerate(running) if j.startswith("slow")]
        assert len(slow) == 2 or slow[2] > running.index("quick-late-4"), running  # a third only after them
    finally:
        release.set()
        assert wait_for(lambda: len(ran) == 12)
        stop.set()


def test_the_feeder_takes_no_more_than_it_can_line_up(queue: Queue) -> None:
    release, running = threading.Event(), []

    def run(key: str, job_id: str) -> None:
        running.append(job_id)
        release.wait(30)

    enqueue(queue, "a", 10)
    lane = ThreadedLane(queue, 2, run, lambda key, _id: key, name="t", lease_ms=3000, lined_up=3)
    stop = threading.Event()
    lane.start(stop)
    try:
        assert wait_for(lambda: len(running) == 2 and lane.share.waiting() == 3)
        time.sleep(0.5)
        assert queue.count == 5  # the rest stays in Redis, for the lane's other processes
    finally:
        release.set()
        stop.set()


def test_a_job_lost_with_its_process_is_taken_again(queue: Queue) -> None:
    ran: list[str] = []
    dead = ThreadedLane(queue, 1, lambda *a: None, lambda key, _id: key, name="dead", lease_ms=300, retake=True)
    enqueue(queue, "a", 1)
    assert dead.feed_one()  # taken and lined up, then its process "dies": nothing refreshes it
    assert queue.count == 0 and Job.fetch("a-0", connection=queue.connection).get_status() == "started"
    alive = ThreadedLane(queue, 1, lambda key, job_id: ran.append(job_id), lambda key, _id: key, name="alive",
                         lease_ms=300, retake=True)
    stop = threading.Event()
    alive.start(stop)
    try:
        assert wait_for(lambda: ran == ["a-0"])
    finally:
        stop.set()


def test_a_job_lined_up_keeps_its_lease_and_a_key_of_that_fails_is_no_key(queue: Queue) -> None:
    release, ran = threading.Event(), []

    def run(key: str, job_id: str) -> Any:
        if job_id == "a-0":
            release.wait(30)
        ran.append(job_id)

    def key_of(key: str, job_id: str) -> str:
        if job_id == "a-1":
            raise RuntimeError("no owner")
        return key

    enqueue(queue, "a", 2)
    lane = ThreadedLane(queue, 1, run, key_of, name="t", lease_ms=300, max_run_s=60, retake=True)
    stop = threading.Event()
    lane.start(stop)
    try:
        assert wait_for(lambda: lane.share.waiting() == 1)
        time.sleep(1.0)  # three leases: both are refreshed, neither is taken again
        assert queue.count == 0 and ran == []
        release.set()
        assert wait_for(lambda: ran == ["a-0", "a-1"])
    finally:
        release.set()
        stop.set()
