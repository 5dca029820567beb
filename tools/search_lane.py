"""The search lane simulated on a test clock, for tests/api/test_fair_search.py and
bench/search_fairness.py: the service's own dispatcher (workers/dispatcher.py) over fake RQ queues,
one fast worker (instant) and one search worker whose searches take exactly the time they are given,
so outcomes are orders and due times, never this machine's speed.

The caller patches ``service.app.bots.choose_for`` with ``SearchLane.choose_for``. The service's
code is imported when a lane is made, not with this module, so the bench can run it from another
source tree (``--src``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.games.kernel.due import Lane


class FakeQueue:
    """An RQ queue as the dispatcher uses it: unique job ids, a count of jobs not yet taken."""

    def __init__(self) -> None:
        self.jobs: list[tuple[dict, str, str]] = []
        self.connection = self.serializer = None

    def enqueue_call(self, func: str, args: tuple, job_id: str, **_: Any) -> None:
        from rq.exceptions import DuplicateJobError

        if any(j[2] == job_id for j in self.jobs):
            raise DuplicateJobError(job_id)
        self.jobs.append(args)

    @property
    def count(self) -> int:
        return len(self.jobs)


class SearchLane:
    """One dispatcher, one fast worker and one search worker of ``svc`` (a GameService), on the
    clock read by ``now`` and moved by ``advance`` (ms). ``given``: each game's search times;
    ``gaps``: each game's bot turns, ms from the turn's opening to the move."""

    def __init__(self, svc: Any, now: Callable[[], int], advance: Callable[[int], None]) -> None:
        from workers.dispatcher import Dispatcher

        self.svc, self.now, self.advance = svc, now, advance
        self.queues = {lane: FakeQueue() for lane in Lane}
        self.dispatcher = Dispatcher(svc.store, self.queues, 600_000, clock=now)  # type: ignore[arg-type]
        self.given: dict[str, list[int]] = {}
        self.gaps: dict[str, list[int]] = {}
        svc.pause = lambda s: advance(round(s * 1000))  # (a worker held until its answer time)

    def choose_for(self, state: Any, seat: int, budget_ms: int | None = None) -> Any:
        """The easy bot's move, after a search of exactly ``budget_ms`` on the lane's clock."""
        from service.games import registry

        easy = registry.of(state).bots["easy"]

        def policy(view: Any, rng: Any) -> dict:
            self.given.setdefault(state.id, []).append(budget_ms or 0)
            self.advance(budget_ms or 0)
            return easy(view, rng)
        return policy

    def run_until(self, done: Callable[[], bool], limit: int = 20_000) -> None:
        """Dispatch, run every fast job and one search at a time, and move the clock to the next due
        work when nothing ran, until ``done()``."""
        from service.eventstore.contract import SHARDS

        for _ in range(limit):
            if done():
                return
            for s in SHARDS:  # the wake-ups the dispatcher's watchers would have seen
                if self.svc.store.wait_wake(s, 0):
                    self.dispatcher.woken(s)
            self.dispatcher.tick()
            ran = self._drain(Lane.FAST)
            if self.queues[Lane.SEARCH].jobs:
                self._run(*self.queues[Lane.SEARCH].jobs.pop(0))
            elif not ran:
                now = self.now()
                nxt = [n for n in (self.svc.store.next_due(s) for s in SHARDS) if n is not None]
                self.advance(max(1, min(nxt, default=now + 10) - now))
        raise AssertionError("the simulation did not finish")

    def _drain(self, lane: str) -> int:
        ran = 0
        while self.queues[lane].jobs:
            self._run(*self.queues[lane].jobs.pop(0))
            ran += 1
        return ran

    def _run(self, payload: dict, shard: str, job_id: str) -> None:
        store, gid = self.svc.store, payload["game"]
        before = store.version(gid)
        if self.svc.run_followup(payload) == "moved":
            opened = store.read(gid, after=payload["opened_seq"] - 1)[0].at
            move = next(e for e in store.read(gid, after=before) if e.seat == payload["seat"])
            self.gaps.setdefault(gid, []).append(move.at - opened)
        store.finish_due(shard, job_id)
