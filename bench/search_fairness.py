"""Fair search and bots-only tables (docs/reliability.md): figures, before and after. Never fails on time.

1. ``search``: a hard table's move time (its budget 200 ms, turn opened -> move) beside 5, 10 and
   20 bots-only tables of another owner at the maximum budget (MEOW_MAX_BOT_BUDGET_MS, 3000 ms),
   one search worker. Simulated on a test clock with the service's own code (write path,
   dispatcher, jobs, memory store): every search takes exactly the time it is given, so the figure
   is the scheduling, not this machine's speed. ``--src DIR`` runs another source tree, e.g. the
   code before fair search: ``git archive 1977ec0 | tar -x -C /tmp/meow-before``.
2. ``pace``: a normal table's easy-bot answer latency over HTTP beside 30 bots-only zero-delay
   easy tables, on a real stack (gunicorn, one fast worker with the dispatcher, one search worker,
   as `meow run`), before (MEOW_BOTS_ONLY_MIN_DELAY_MS=0, no caps) and after (the defaults), on
   REDIS_URL (or an embedded Redis).

    .venv/bin/python bench/search_fairness.py search [--src DIR] [--moves 12]
    .venv/bin/python bench/search_fairness.py pace [--tables 30] [--moves 150]
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


# ---------------------------------------------------------------------------------------- search
class _Queue:
    def __init__(self) -> None:
        self.jobs: list[tuple] = []
        self.connection = self.serializer = None

    def enqueue_call(self, func: str, args: tuple, job_id: str, **_: Any) -> None:
        from rq.exceptions import DuplicateJobError

        if any(j[2] == job_id for j in self.jobs):
            raise DuplicateJobError(job_id)
        self.jobs.append(args)

    @property
    def count(self) -> int:
        return len(self.jobs)


def simulate(flood: int, moves: int) -> list[int]:
    """The victim's move times (ms, turn opened -> move) beside ``flood`` max-budget tables."""
    import service.app.bots as bots
    from service.api.app import create_app
    from service.eventstore.contract import SHARDS
    from service.eventstore.memory import MemoryEventStore
    from service.games import registry
    from service.games.kernel.due import Lane
    from service.settings import Settings
    from workers.dispatcher import Dispatcher

    clock = [1_800_000_000_000]
    known = {f.name for f in dataclasses.fields(Settings)}
    wanted = {"rate_limits": "off", "bots_only_per_owner": 0, "bots_only_per_address": 0}
    app = create_app(Settings(**{k: v for k, v in wanted.items() if k in known}), store=MemoryEventStore())
    svc = app.extensions["meow.service"]
    svc.clock = lambda: clock[0]
    svc.pause = lambda s: clock.__setitem__(0, clock[0] + round(s * 1000))  # (the old code held its worker)
    client = app.test_client()
    cap = svc.settings.max_bot_budget_ms

    def table(address: str, budget: int) -> str:
        g = client.post("/v1/games", json={"variant": "prsi", "options": {
            "hard_bot_budget_ms": budget, "penalty_limit": 1000, "bot_delay_ms": {"hard": [0, 0]}}},
            environ_base={"REMOTE_ADDR": address}).json
        auth = {"Authorization": f"Bearer {g['owner_token']}"}
        for _ in range(2):
            client.post(f"/v1/games/{g['id']}/seats", json={"bot": {"strength": "hard"}}, headers=auth)
        client.post(f"/v1/games/{g['id']}/start", headers=auth)
        return g["id"]

    for _ in range(flood):
        table("10.1.1.1", cap)
    victim = table("10.2.2.2", 200)

    def choose_for(state: Any, seat: int, budget_ms: int | None = None) -> Any:
        easy = registry.of(state).bots["easy"]

        def policy(view: Any, rng: Any) -> dict:
            clock[0] += budget_ms or 0  # a search takes exactly the time it is given
            return easy(view, rng)
        return policy

    bots.choose_for = choose_for
    queues = {lane: _Queue() for lane in Lane}
    dispatcher = Dispatcher(svc.store, queues, 600_000, clock=lambda: clock[0])  # type: ignore[arg-type]
    gaps: list[int] = []

    def run(payload: dict, shard: str, job_id: str) -> None:
        gid = payload["game"]
        before = svc.store.version(gid)
        if svc.run_followup(payload) == "moved" and gid == victim:
            opened = svc.store.read(gid, after=payload["opened_seq"] - 1)[0].at
            move = next(e for e in svc.store.read(gid, after=before) if e.seat == payload["seat"])
            gaps.append(move.at - opened)
        svc.store.finish_due(shard, job_id)

    while len(gaps) < moves:
        dispatcher.tick()
        ran = 0
        while queues[Lane.FAST].jobs:
            run(*queues[Lane.FAST].jobs.pop(0))
            ran += 1
        if queues[Lane.SEARCH].jobs:
            run(*queues[Lane.SEARCH].jobs.pop(0))
        elif not ran:
            nxt = [n for n in (svc.store.next_due(s) for s in SHARDS) if n is not None]
            clock[0] = max(clock[0] + 1, min(nxt, default=clock[0] + 10))
    return gaps


def search_main(args: argparse.Namespace) -> None:
    src = os.path.abspath(args.src or ROOT)
    sys.path.insert(0, src)
    print(f"a hard table's move time (budget 200 ms, zero delay) beside N bots-only tables of another owner "
          f"at the maximum budget, one search worker; simulated clock; source {src}")
    for flood in (5, 10, 20):
        gaps = simulate(flood, args.moves)
        print(f"  N={flood:2d}: {len(gaps)} moves  p50 {pct(gaps, 50) / 1000:6.2f} s  "
              f"max {max(gaps) / 1000:6.2f} s  mean {statistics.mean(gaps) / 1000:6.2f} s")


# ------------------------------------------------------------------------------------------ pace
def pace_main(args: argparse.Namespace) -> None:
    sys.path.insert(0, ROOT)
    import requests

    from bench.bot_latency import measure
    from tests.e2e.conftest import _free_port, _wait_ready, start_api

    url = os.environ.get("REDIS_URL")  # (its keys carry a fresh prefix, removed at the end)
    server = None
    if not url:
        from service.embedded_redis import EmbeddedRedis

        server = EmbeddedRedis.start()
        url = server.url
    try:
        for label, extra in (("before (no pace floor, no caps)", {"MEOW_BOTS_ONLY_MIN_DELAY_MS": "0"}),
                             ("after (the defaults)", {})):
            prefix = f"meowbench-{uuid.uuid4().hex[:8]}"
            env = dict(os.environ, REDIS_URL=url, MEOW_KEY_PREFIX=prefix, MEOW_QUEUE=prefix, PYTHONPATH=ROOT,
                       MEOW_RATE_LIMITS="off", MEOW_BOTS_ONLY_PER_OWNER="0", MEOW_BOTS_ONLY_PER_ADDRESS="0", **extra)
            port = _free_port()
            base = f"http://127.0.0.1:{port}"
            web = start_api(env, port)
            workers = [subprocess.Popen([sys.executable, "-m", "service.cli", "worker", *lane], env=env, cwd=ROOT,
                                        stderr=subprocess.DEVNULL)
                       for lane in (["--queues", "fast"], ["--queues", "search,fast", "--no-dispatcher"])]
            try:
                _wait_ready(base, [web, *workers])
                s = requests.Session()
                s.trust_env = False
                for _ in range(args.tables):
                    g = s.post(f"{base}/v1/games", json={"variant": "prsi", "options": {
                        "bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0, "round_intermission_s": 0,
                        "penalty_limit": 1000}}).json()
                    auth = {"Authorization": f"Bearer {g['owner_token']}"}
                    for _ in range(2):
                        s.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"strength": "easy"}}, headers=auth)
                    assert s.post(f"{base}/v1/games/{g['id']}/start", headers=auth).status_code == 200
                measure(base, 10, random.Random(0))  # warm-up
                lat = measure(base, args.moves, random.Random(1))
                print(f"easy bot answer latency beside {args.tables} bots-only zero-delay tables, {label}: "
                      f"p50 {pct(lat, 50):6.1f} ms  p90 {pct(lat, 90):6.1f} ms  p99 {pct(lat, 99):6.1f} ms "
                      f"({len(lat)} moves)")
            finally:
                for p in (web, *workers):
                    p.terminate()
                    try:
                        p.wait(10)
                    except subprocess.TimeoutExpired:
                        p.kill()
                import redis

                client = redis.Redis.from_url(url)
                for key in client.scan_iter(match=f"*{prefix}*", count=1000):
                    client.delete(key)
                client.close()
                time.sleep(0.5)
    finally:
        if server:
            server.stop()


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="part", required=True)
    s = sub.add_parser("search")
    s.add_argument("--src", help="the source tree to run (default: this one)")
    s.add_argument("--moves", type=int, default=12)
    p = sub.add_parser("pace")
    p.add_argument("--tables", type=int, default=30)
    p.add_argument("--moves", type=int, default=150)
    args = ap.parse_args()
    (search_main if args.part == "search" else pace_main)(args)


if __name__ == "__main__":
    main()
