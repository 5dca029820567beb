"""Benchmark: what a game costs to load and to keep, by its length (issue 16's baseline).

Plays 5-seat Prší matches with random legal actions through the application on a real Redis
(REDIS_URL's DB 14 under a unique prefix, deleted at the end, or an embedded redis-server) until
each game has at least 100, 1,000 and 10,000 events (elimination at the highest penalty limit keeps
the match going; a match that ends first is measured as it is; scoring and deals run in-process as a
worker would). Then, per game:

- cold load: a fresh service (empty state cache, as the first read in a new process), ``load``,
  from the nearest snapshot (one each 1,000 events, service/app/snapshots.py) and, for
  comparison, with snapshots turned off (every event folded);
- warm load: the same service again (the cached fold, fast-forwarded by nothing);
- ``state?at=N`` at the newest event and at half of it (from the nearest snapshot at or before);
- Redis memory of the game's keys (MEMORY USAGE), in all and per event, and of its snapshots.

Medians of repeated runs, milliseconds of wall time. Prints figures only; never fails on time.

    python -m bench.replay [--sizes 100,1000,10000] [--repeat 5]
"""
from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time
from typing import Any

from bench.api import RedisUnderTest
from bench.inprocess import Clock, drain
from service.api.app import create_app
from service.app import queries
from service.app.auth import SPECTATOR
from service.eventstore.contract import shard_of
from service.settings import Settings
from service.wiring import build_service

OPTIONS = {"bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0, "round_intermission_s": 0,
           "penalty_limit": 1000, "match_end_mode": "elimination", "turn_timeout_s": None}
SEATS = 5


def build_game(settings: Settings, events: int, rng: random.Random) -> tuple[str, int]:
    """A 5-seat Prší game with at least ``events`` events (or fewer, if its match ended first)."""
    app = create_app(settings)
    svc = app.extensions["meow.service"]
    clock = Clock()
    svc.clock = clock
    c = app.test_client()
    r = c.post("/v1/games", json={"variant": "prsi", "options": OPTIONS, "max_players": SEATS})
    assert r.status_code == 201, r.json
    g = r.json
    gid = g["id"]
    tokens = [c.post(f"/v1/games/{gid}/seats", json={"name": f"p{i}"}).json["token"] for i in range(SEATS)]
    c.post(f"/v1/games/{gid}/start", headers={"Authorization": f"Bearer {g['owner_token']}"})
    version = 0
    while version < events:
        drain(svc, clock.now + 10_000)
        views = [c.get(f"/v1/games/{gid}", headers={"Authorization": f"Bearer {t}"}).json for t in tokens]
        version = views[0]["version"]
        if views[0]["status"] != "running":
            break  # the match ended first: measured as it is
        movers = [(t, v["you"]["legal_actions"]) for t, v in zip(tokens, views) if v["you"]["legal_actions"]]
        if not movers:
            clock.now += 60_000
            continue
        token, actions = rng.choice(movers)
        c.post(f"/v1/games/{gid}/actions", json={**rng.choice(actions), "expected_version": version},
               headers={"Authorization": f"Bearer {token}"})
    return gid, version


def _ms(fn: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def memory(redis_ut: RedisUnderTest, gid: str) -> int:
    return sum(int(redis_ut.client.memory_usage(k) or 0) for k in redis_ut.client.scan_iter(match=f"*{gid}*", count=1000))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="100,1000,10000")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    redis_ut = RedisUnderTest()
    settings = Settings(redis_url=redis_ut.url, key_prefix=redis_ut.uid)
    rng = random.Random(1)
    print(f"Redis {redis_ut.version()}: {redis_ut.where}")
    print(f"{'events':>7} {'cold ms':>8} {'no snap':>8} {'warm ms':>8} {'at=N ms':>8} {'at=N/2 ms':>9} "
          f"{'memory':>10} {'B/event':>8} {'snapshots':>10}")
    plain = dataclasses.replace(settings, snapshot_every=0)
    try:
        for size in (int(x) for x in args.sizes.split(",")):
            gid, version = build_game(settings, size, rng)

            def cold() -> None:
                build_service(settings).load(gid)

            def cold_plain() -> None:
                build_service(plain).load(gid)

            warm_svc = build_service(settings)
            warm_svc.load(gid)
            warm = _ms(lambda: warm_svc.load(gid), args.repeat * 4)
            at_n = _ms(lambda: queries.state_at(warm_svc, gid, SPECTATOR, version), args.repeat)
            at_half = _ms(lambda: queries.state_at(warm_svc, gid, SPECTATOR, max(1, version // 2)), args.repeat)
            mem = memory(redis_ut, gid)
            snap = int(redis_ut.client.memory_usage(f"{{{redis_ut.uid}:{shard_of(gid)}}}:snap:{gid}") or 0)
            print(f"{version:>7} {_ms(cold, args.repeat):>8.1f} {_ms(cold_plain, args.repeat):>8.1f} {warm:>8.2f} "
                  f"{at_n:>8.1f} {at_half:>9.1f} {mem:>10,} {mem / version:>8.0f} {snap:>10,}", flush=True)
    finally:
        print(f"cleanup: deleted {redis_ut.cleanup()} keys")


if __name__ == "__main__":
    main()
