"""Fault scenarios with published figures (issue 16 item 3; docs/reliability.md).

Scenarios run through the real application on a real Redis (REDIS_URL's DB 14 under a unique
prefix, deleted at the end, or an embedded redis-server), with real threads racing in the
application and in Redis's scripts:

- ``racing``: N ∈ {2, 8, 32, 128} requests of one seat at once, all guarded by the same version
  (``expected_version``), released together by a barrier: exactly one is accepted (200), every
  other one is 409 ``version_conflict`` and nothing else is written; the game's version moves by
  exactly that one action's events. Repeated over a long random Prší match (a new table when one
  ends).
- ``idempotency``: one action with one Idempotency-Key sent 100 times one after another, and 100
  times at once: one write (the version moves once), every accepted answer identical to the first
  but for ``replayed: true``, which marks a replay (API.md).
- ``redis``: SIGKILL of an embedded redis-server (AOF) under load, and what ``appendfsync always``
  costs against ``everysec`` (bench/fault_redis.py).
- ``workers``: workers and forked work-horses SIGKILLed mid bot turn (bench/fault_workers.py).
- ``redaction``: the redaction oracle over random games of every registered variant, and leaks
  planted in each (tests/conformance/redaction_faults.py, run as a program).
- ``failover``: a Redis Cluster primary SIGKILLed under load after its replica stopped applying its
  writes, with MEOW_WAIT_REPLICAS 0 and 1 (promotion time, 503s per kill, acknowledged events
  lost), and what waiting for a replica costs (bench/fault_failover.py).

    python -m bench.faults [--trials 250] [--only racing,idempotency,redis,workers,redaction,failover]
                           [--write docs/reliability.md]
    python -m bench.faults --quick        # what make test runs (tests/e2e/test_faults_quick.py)
"""
from __future__ import annotations

import argparse
import random
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import orjson

from bench.api import RedisUnderTest
from bench.inprocess import drain
from service.api.app import create_app
from service.settings import Settings

OPTIONS = {"bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0, "round_intermission_s": 0,
           "match_end_mode": "single_round", "turn_timeout_s": None}


@dataclass
class Outcome:
    scenario: str
    trials: int = 0
    ok: int = 0
    failures: list[str] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    note: str = ""  # a measurement to show instead of the answers' counts

    def fail(self, why: str) -> None:
        if len(self.failures) < 10:
            self.failures.append(why)


class Table:
    """A two-seat Prší table driven through the app (threads share the app; each call is one request)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.svc = app.extensions["meow.service"]
        self.new()

    def client(self) -> Any:
        return self.app.test_client()

    def new(self) -> None:
        c = self.client()
        r = c.post("/v1/games", json={"variant": "prsi", "options": OPTIONS, "max_players": 2})
        assert r.status_code == 201, r.json
        self.gid = r.json["id"]
        self.tokens = [c.post(f"/v1/games/{self.gid}/seats", json={"name": f"p{i}"}).json["token"] for i in range(2)]
        c.post(f"/v1/games/{self.gid}/start", headers=self._auth(r.json["owner_token"]))

    @staticmethod
    def _auth(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    def mover(self, rng: random.Random) -> tuple[str, dict[str, Any], int]:
        """A seat with something to do, one of its version-guarded legal actions and the version
        (a new table when the round is over). ``announce`` is left out: it is race tolerant by
        design (RULES §3.8: taken without a version precondition; a late one has no effect)."""
        while True:
            self._drain()
            views = [self.client().get(f"/v1/games/{self.gid}", headers=self._auth(t)).json for t in self.tokens]
            if views[0]["status"] != "running":
                self.new()
                continue
            movers = [(t, [a for a in v["you"]["legal_actions"] if a["type"] != "announce"])
                      for t, v in zip(self.tokens, views)]
            movers = [(t, acts) for t, acts in movers if acts]
            if movers:
                token, actions = rng.choice(movers)
                return token, rng.choice(actions), views[0]["version"]
            time.sleep(0.01)  # scoring or a deal is due in a moment: the next _drain runs it

    def version(self) -> int:
        return int(self.client().get(f"/v1/games/{self.gid}").json["version"])

    def _drain(self) -> None:
        drain(self.svc, self.svc.clock() + 10_000)

def racing(table: Table, n: int, trials: int, rng: random.Random, pool: ThreadPoolExecutor) -> Outcome:
    out = Outcome(f"racing writers, N = {n}")
    t0 = time.perf_counter()
    for _ in range(trials):
        token, action, version = table.mover(rng)
        barrier = threading.Barrier(n)

        def one(_: int) -> tuple[int, str | None, int | None]:
            c = table.client()
            barrier.wait()
            r = c.post(f"/v1/games/{table.gid}/actions", json={**action, "expected_version": version},
                       headers=table._auth(token))
            body = r.json or {}
            return r.status_code, body.get("code"), body.get("version")

        results = list(pool.map(one, range(n)))
        out.trials += 1
        out.statuses.update(s if s == 200 else f"{s} {code}" for s, code, _ in results)
        accepted = [r for r in results if r[0] == 200]
        others = [r for r in results if r[0] != 200]
        after = table.version()
        if len(accepted) != 1:
            out.fail(f"{len(accepted)} accepted of {n} at version {version} ({action})")
        elif any((s, code) != (409, "version_conflict") for s, code, _ in others):
            out.fail(f"a loser answered {Counter((s, c) for s, c, _ in others)}")
        elif accepted[0][2] != after:
            out.fail(f"the winner's version {accepted[0][2]} is not the game's {after}")
        else:
            out.ok += 1
    out.seconds = time.perf_counter() - t0
    return out


def idempotency(table: Table, sends: int, concurrent: bool, rng: random.Random, pool: ThreadPoolExecutor) -> Outcome:
    out = Outcome(f"Idempotency-Key resent {sends}x {'at once' if concurrent else 'one after another'}")
    t0 = time.perf_counter()
    token, action, version = table.mover(rng)
    key = str(uuid.uuid4())
    barrier = threading.Barrier(sends) if concurrent else None

    def one(_: int) -> tuple[int, bytes]:
        c = table.client()
        if barrier is not None:
            barrier.wait()
        r = c.post(f"/v1/games/{table.gid}/actions", json={**action, "expected_version": version},
                   headers={**table._auth(token), "Idempotency-Key": key})
        return (r.status_code, r.data) if r.status_code == 200 else (r.status_code, (r.json or {}).get("code", "").encode())

    results = list(pool.map(one, range(sends))) if concurrent else [one(i) for i in range(sends)]

    def same(body: bytes) -> bytes:  # a replay says so (``replayed: true``); otherwise the first answer
        data = orjson.loads(body)
        data.pop("replayed", None)
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)

    results = [(s, same(body) if s == 200 else body) for s, body in results]
    out.trials = sends
    out.statuses.update(s if s == 200 else f"{s} {body.decode()}" for s, body in results)
    first = next((body for s, body in results if s == 200), None)
    after = table.version()
    if first is None:
        out.fail(f"no send was accepted: {Counter(s for s, _ in results)}")
    else:
        writes = after - version
        events = len(orjson.loads(first)["events"])
        if writes != events:
            out.fail(f"the version moved by {writes}, one write is {events} events")
        for s, body in results:
            if s != 200:  # a twin that lost the race gets the winner's answer, not a refusal
                out.fail(f"a resend answered {s} {body.decode()}")
            elif body != first:
                out.fail("an answer differs from the first")
        out.ok = sum(1 for s, body in results if s == 200 and body == first)
    out.seconds = time.perf_counter() - t0
    return out


def redis_faults(kills: int, threads: int, fsync_s: float) -> list[Outcome]:
    """SIGKILL of the embedded redis-server under load, and what appendfsync always costs (bench/fault_redis.py)."""
    from bench import fault_redis

    out = [fault_redis.redis_kill(kills, threads, 2.0, 1.0,
                                  Outcome(f"SIGKILL of redis-server (AOF, everysec) under load, {threads} players"))]
    if fsync_s > 0:
        for mode in ("everysec", "always"):
            out.append(fault_redis.fsync_cost(mode, threads, fsync_s,
                                              Outcome(f"moves with appendfsync {mode}, {threads} players")))
    return out


def worker_faults(kills: int, per_round: int) -> list[Outcome]:
    """Workers and work-horses SIGKILLed mid bot turn (bench/fault_workers.py)."""
    from bench import fault_workers

    return [fault_workers.worker_kills(kills, per_round,
                                       Outcome(f"workers / work-horses SIGKILLed mid bot turn, {per_round} at once"))]


def redaction_faults(games: int, steps: int) -> list[Outcome]:
    """The redaction oracle over random games of every variant, and planted leaks: the test suite's
    oracle, run as its program (tests/conformance/redaction_faults.py: the benches import nothing of tests/)."""
    import json
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run([sys.executable, "-m", "tests.conformance.redaction_faults", "--json", "--games", str(games),
                           "--steps", str(steps)], cwd=root, env=dict(os.environ, PYTHONPATH=root),
                          stdout=subprocess.PIPE, check=True, text=True)
    rows = [Outcome(**{**row, "statuses": Counter(row["statuses"])}) for row in json.loads(done.stdout)]
    return rows


def failover_faults(kills: int, threads: int, cost_s: float) -> list[Outcome]:
    """A cluster primary SIGKILLed with its replica cut off, waiting for 0 and 1 replicas (bench/fault_failover.py)."""
    from bench import fault_failover

    out = []
    for waits in (0, 1):
        out.append(fault_failover.failover(kills, threads, waits, Outcome(
            f"cluster primary SIGKILLed, replica cut {fault_failover.CUT_S:.0f} s before, "
            f"MEOW_WAIT_REPLICAS={waits}, {threads} players")))
    if cost_s > 0:
        for waits in (0, 1):
            out.append(fault_failover.wait_cost(waits, threads, cost_s, Outcome(
                f"moves on a 3+3 cluster with MEOW_WAIT_REPLICAS={waits}, {threads} players")))
    return out


def run(trials: int, sizes: tuple[int, ...], resends: int) -> list[Outcome]:
    redis_ut = RedisUnderTest()
    try:
        app = create_app(Settings(redis_url=redis_ut.url, key_prefix=redis_ut.uid, rate_limits="off",
                                  redis_pool_size=max(64, max(sizes) + 8)))
        table = Table(app)
        rng = random.Random(1)
        out = []
        with ThreadPoolExecutor(max_workers=max(max(sizes), resends)) as pool:
            for n in sizes:
                out.append(racing(table, n, trials, rng, pool))
            out.append(idempotency(table, resends, False, rng, pool))
            out.append(idempotency(table, resends, True, rng, pool))
        return out
    finally:
        redis_ut.cleanup()


def report(results: list[Outcome]) -> str:
    lines = ["| scenario | trials | as required | answers | time |", "|---|---|---|---|---|"]
    for r in results:
        answers = r.note or ", ".join(f"{k}: {v}" for k, v in sorted(r.statuses.items(), key=str))
        lines.append(f"| {r.scenario} | {r.trials} | {r.ok} | {answers} | {r.seconds:.1f} s |")
    for r in results:
        for f in r.failures:
            lines.append(f"\nFAILED {r.scenario}: {f}")
    return "\n".join(lines)


def merge(old: str, new: str) -> str:
    """The figures table with this run's rows replacing those of the same scenarios (a run of some
    scenarios keeps the others' rows)."""
    def rows(text: str) -> dict[str, str]:
        return {line.split("|")[1].strip(): line for line in text.splitlines()
                if line.startswith("| ") and not line.startswith("| scenario")}

    kept, fresh = rows(old), rows(new)
    failures = [line for line in new.splitlines() if line.startswith("FAILED")]
    merged = {**kept, **fresh}
    return "\n".join(["| scenario | trials | as required | answers | time |", "|---|---|---|---|---|",
                      *merged.values(), *(["", *failures] if failures else [])])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=250, help="trials per racing size (4 sizes: 1,000 in all)")
    ap.add_argument("--resends", type=int, default=100)
    ap.add_argument("--kills", type=int, default=10, help="SIGKILLs of redis-server under load")
    ap.add_argument("--players", type=int, default=4, help="client threads while redis-server is killed")
    ap.add_argument("--fsync-s", type=float, default=10.0, help="seconds of play per appendfsync mode (0: skip)")
    ap.add_argument("--worker-kills", type=int, default=60, help="bot turns whose worker or work-horse is killed")
    ap.add_argument("--per-round", type=int, default=6, help="workers killed at once (half simple, half forking)")
    ap.add_argument("--games", type=int, default=200, help="random games of each variant through the redaction oracle")
    ap.add_argument("--steps", type=int, default=60, help="moves per game at most (the oracle's)")
    ap.add_argument("--failover-kills", type=int, default=10, help="cluster primaries SIGKILLed per waiting setting")
    ap.add_argument("--wait-cost-s", type=float, default=10.0, help="seconds of play per waiting setting (0: skip)")
    ap.add_argument("--only", default="racing,idempotency,redis,workers,redaction,failover",
                    help="scenarios to run (comma-separated)")
    ap.add_argument("--quick", action="store_true", help="a few trials (what make test runs)")
    ap.add_argument("--write", metavar="FILE", help="also replace the figures table in this markdown file")
    args = ap.parse_args()
    trials, resends = (5 if args.quick else args.trials), args.resends
    only = set(args.only.split(","))
    results = run(trials, (2, 8, 32, 128), resends) if only & {"racing", "idempotency"} else []
    if "redis" in only:
        results += redis_faults(1 if args.quick else args.kills, 2 if args.quick else args.players,
                                0 if args.quick else args.fsync_s)
    if "redaction" in only:
        results += redaction_faults(1 if args.quick else args.games, 30 if args.quick else args.steps)
    if "workers" in only:
        results += worker_faults(2 if args.quick else args.worker_kills, 2 if args.quick else args.per_round)
    if "failover" in only and not args.quick:  # (make test has its own: tests/e2e/test_failover.py)
        results += failover_faults(args.failover_kills, args.players, args.wait_cost_s)
    text = report(results)
    print(text)
    if args.write:
        from pathlib import Path

        path = Path(args.write)
        doc = path.read_text(encoding="utf-8")
        start, end = "<!-- faults:begin -->", "<!-- faults:end -->"
        head, _, rest = doc.partition(start)
        block, _, tail = rest.partition(end)
        path.write_text(f"{head}{start}\n{merge(block, text)}\n{end}{tail}", encoding="utf-8")
    raise SystemExit(1 if any(r.failures for r in results) else 0)


if __name__ == "__main__":
    main()
