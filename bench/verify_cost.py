"""What verify and long reads cost, and what they cost everybody else (issue 25, finding 3).
Prints figures; never fails on time.

    .venv/bin/python bench/verify_cost.py [--events 5000] [--seconds 15] [--before /work/main]

It builds one finished 5-bot prsi match of about ``--events`` events in-process (GameService on
REDIS_URL's DB 14, or MEOW_BENCH_DB, under a unique key prefix; bots and scoring run in-process
as a worker would), then:

1. In-process, the verify of that game: computed every time (what the service did before: the
   kept report dropped before each call) against the first call and the kept report after it
   (medians of ``--repeat`` calls, ms), and what a GET of its history and events?after=0 cost
   in cost units (service/app/meter.py); and what `meow verify` costs on that history (ms): its
   standard-library checks alone (``--independent``) and with the engine's replay.
2. Live, gunicorn as `make run` serves it (gevent, 2 workers, rate limits at their defaults)
   from this tree and, with ``--before DIR``, from another checkout of the service (the code
   before this change): the view latency of another game (a spectator, from 127.0.0.2, 20 per
   second) alone, then while 6 loops from one token (the audit token, from 127.0.0.3) GET the
   finished game's verify back to back, then while 6 such loops GET its history (each loop its
   own process, so the bench's own CPU never delays the probe). Per window: view p50/p90 (ms),
   the loops' answers by status (over the window and the 2 s before it), and the API workers' CPU.

Only the bench's own keys are deleted at the end.
"""
from __future__ import annotations

import argparse
import http.client
import multiprocessing as mp
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.api import RedisUnderTest, children_of, free_port, proc_cpu_s
from bench.inprocess import Clock, drain

ROOT = Path(__file__).resolve().parent.parent
AUDIT = "bench-audit-token"  # the in-process part's; each live window's loops use a token of their own
LOOPS = 6


def build_finished(svc: Any, target: int) -> tuple[str, int]:
    """A finished 5-bot prsi match of about ``target`` events (random prsi gives ~6-8 events per
    point of the penalty limit with 5 bots; the largest of a few tries is kept)."""
    best: tuple[str, int] | None = None
    limit = max(50, min(1000, round(target / 7)))
    for _ in range(4):
        out = svc.create("prsi", {"bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0, "round_intermission_s": 0,
                                  "penalty_limit": limit, "match_end_mode": "elimination", "turn_timeout_s": None},
                         5, None, None)
        gid, owner = out.game_id, out.extra["owner_token"]
        for _ in range(5):
            svc.join(gid, svc.authenticate(gid, owner), None, {"strength": "easy"}, None)
        svc.start(gid, svc.authenticate(gid, owner), None, None)
        clock: Any = svc.clock
        while svc.load(gid).status != "finished":
            drain(svc, clock.now + 10_000)
            clock.now += 10_000
        version = svc.load(gid).version
        if best is None or abs(version - target) < abs(best[1] - target):
            best = (gid, version)
        if 0.8 * target <= version <= 1.25 * target:
            break
        limit = max(50, min(1000, round(limit * target / version)))
    assert best is not None
    return best


def median_ms(fn: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def in_process(svc: Any, gid: str, repeat: int) -> None:
    from service.app import meter, queries
    from service.app.compaction import ARCHIVIST
    from service.verifier.check import verify as independent_verify

    def drop() -> None:
        svc.store.r.delete(svc.store.keys.report(gid))

    def computed() -> None:
        drop()
        queries.verify(svc, gid, ARCHIVIST)

    before = median_ms(computed, repeat)
    drop()
    t0 = time.perf_counter()
    m = meter.start()
    queries.verify(svc, gid, ARCHIVIST)
    first, first_units = (time.perf_counter() - t0) * 1000, m.units
    m = meter.start()
    kept = median_ms(lambda: queries.verify(svc, gid, ARCHIVIST), repeat * 10)
    kept_units = m.units
    m = meter.start()
    records = list(queries.history(svc, gid, ARCHIVIST)[1])
    history_units = m.units
    m = meter.start()
    list(queries.events(svc, gid, ARCHIVIST, 0, 0)[1])
    events_units = m.units
    meter.stop()
    print(f"verify, computed every time (before): {before:8.1f} ms")
    print(f"verify, first call (computed, kept):  {first:8.1f} ms   {first_units} cost units")
    print(f"verify, kept report (after):          {kept:8.2f} ms   {kept_units // (repeat * 10)} cost units")
    print(f"history: {history_units} cost units; events?after=0: {events_units} cost units", flush=True)
    independent = median_ms(lambda: independent_verify(records, replay=False), repeat)
    replayed = median_ms(lambda: independent_verify(records), repeat)
    print(f"meow verify of its history: independent checks (chain, commitments, permutations) {independent:.1f} ms; "
          f"with the engine replay {replayed:.1f} ms", flush=True)


class Server:
    """gunicorn (gevent, 2 workers) serving the service from ``tree``."""

    def __init__(self, tree: Path, env: dict[str, str]) -> None:
        self.port = free_port()
        self.log = tempfile.NamedTemporaryFile(prefix="bench-verify-", suffix=".log", delete=False)  # noqa: SIM115
        cmd = [sys.executable, "-m", "gunicorn", "--config", "python:service.gunicorn_conf", "--workers", "2",
               "--bind", f"127.0.0.1:{self.port}", "--chdir", str(tree), "--log-level", "warning",
               "service.api.app:create_app()"]
        self.proc = subprocess.Popen(cmd, cwd=tree, env={**os.environ, **env, "PYTHONPATH": str(tree)},
                                     stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 30
        while get(self.port, "/healthz", source="127.0.0.1")[0] != 200:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(Path(self.log.name).read_text()[-3000:])
            time.sleep(0.2)

    def pids(self) -> list[int]:
        return [self.proc.pid, *children_of(self.proc.pid)]

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
        os.unlink(self.log.name)


def get(port: int, path: str, source: str, token: str | None = None,
        conn: http.client.HTTPConnection | None = None) -> tuple[int, bytes]:
    status, _took, body = timed_get(port, path, source, token, conn)
    return status, body


def timed_get(port: int, path: str, source: str, token: str | None = None,
              conn: http.client.HTTPConnection | None = None) -> tuple[int, float, bytes]:
    own = conn is None
    c = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    t0 = time.perf_counter()
    try:
        c.request("GET", path, headers={"Authorization": f"Bearer {token}"} if token else {})
        r = c.getresponse()
        body = r.read()
        return r.status, time.perf_counter() - t0, body if r.status == 429 else b""
    except OSError:
        return 0, time.perf_counter() - t0, b""
    finally:
        if own:
            c.close()


def _loop(port: int, path: str, token: str, stop: Any, out: Any) -> None:
    """One loop (its own process, so the client's CPU never delays the probe): GET ``path`` with
    ``token`` from 127.0.0.3, back to back, until ``stop``; the answers go to ``out`` (a 429 by
    the budget that refused it: the cost budget or a request count)."""
    answers: Counter[str] = Counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=("127.0.0.3", 0))
    while not stop.is_set():
        status, body = get(port, path, "127.0.0.3", token, conn)
        answers[str(status) if status != 429 else "429 cost" if b"cost" in body else "429 count"] += 1
        if status == 0:
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=("127.0.0.3", 0))
    conn.close()
    out.put(dict(answers))


def window(server: Server, other: str, loop_path: str | None, token: str, seconds: float) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    stop, out = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=_loop, args=(server.port, loop_path, token, stop, out), daemon=True)
             for _ in range(LOOPS if loop_path else 0)]
    for p in procs:
        p.start()
    time.sleep(2.0 if loop_path else 0)  # (the processes start, the first verify is computed)
    cpu0, t0 = proc_cpu_s(server.pids()), time.perf_counter()
    views: list[float] = []
    statuses: Counter[int] = Counter()
    while time.perf_counter() - t0 < seconds:
        status, took, _ = timed_get(server.port, f"/v1/games/{other}", "127.0.0.2")
        statuses[status] += 1
        views.append(took * 1000)
        time.sleep(max(0.0, 0.05 - took))
    cpu = (proc_cpu_s(server.pids()) - cpu0) / (time.perf_counter() - t0)
    stop.set()
    answers: Counter[str] = Counter()
    for _ in procs:
        answers.update(out.get(timeout=180))
    for p in procs:
        p.join(timeout=30)
    views.sort()
    return {"p50": statistics.median(views), "p90": views[int(0.9 * (len(views) - 1))], "n": len(views),
            "views": dict(statuses), "loops": dict(answers), "cpu": cpu}


def live(tree: Path, label: str, env: dict[str, str], gid: str, other: str, seconds: float) -> None:
    server = Server(tree, env)
    try:
        rows = [("alone", None), ("6x verify", f"/v1/games/{gid}/verify"), ("6x history", f"/v1/games/{gid}/history")]
        for name, path in rows:
            w = window(server, other, path, f"{AUDIT}-{name[3:]}", seconds)
            print(f"{label:<8} {name:<11} view p50 {w['p50']:7.1f} ms  p90 {w['p90']:7.1f} ms  ({w['n']} views "
                  f"{w['views']})  loops' answers {w['loops'] or '-'}  API CPU {100 * w['cpu']:.0f}% of a core",
                  flush=True)
    finally:
        server.stop()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--before", type=Path, default=None, help="another checkout: the code before this change")
    args = ap.parse_args()
    from service.settings import Settings
    from service.wiring import build_service

    redis_ut = RedisUnderTest()
    settings = Settings(redis_url=redis_ut.url, key_prefix=redis_ut.uid, queue_name=redis_ut.uid)
    print(f"Redis {redis_ut.version()}: {redis_ut.where}", flush=True)
    try:
        svc = build_service(settings)
        svc.clock = Clock()
        t0 = time.perf_counter()
        gid, version = build_finished(svc, args.events)
        print(f"finished game {gid}: {version} events (built in {time.perf_counter() - t0:.1f} s)", flush=True)
        other = svc.create("prsi", {}, None, None, None).game_id
        in_process(svc, gid, args.repeat)
        svc.store.r.delete(svc.store.keys.report(gid))  # the live windows start with nothing kept
        env = {"REDIS_URL": redis_ut.url, "MEOW_KEY_PREFIX": redis_ut.uid, "MEOW_QUEUE": redis_ut.uid,
               "MEOW_AUDIT_TOKENS": f"{AUDIT},{AUDIT}-verify,{AUDIT}-history"}
        trees = ([(args.before.resolve(), "before")] if args.before else []) + [(ROOT, "after")]
        for tree, label in trees:
            live(tree, label, env, gid, other, args.seconds)
            svc.store.r.delete(svc.store.keys.report(gid))
    finally:
        print(f"cleanup: deleted {redis_ut.cleanup()} keys")


if __name__ == "__main__":
    main()
