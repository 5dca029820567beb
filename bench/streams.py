"""Live feeds under load: thousands of open SSE streams against gevent gunicorn. Prints figures; never fails on timing.

    .venv/bin/python bench/streams.py                  # full run (about 8 minutes on 2 cores)
    .venv/bin/python bench/streams.py --quick          # smoke test: 200 streams, short windows (under a minute)
    .venv/bin/python bench/streams.py --streams 1000,5000,10000 --games 50 --rate 1 --seconds 30
    .venv/bin/python bench/streams.py --skip-b --skip-c   # phase A only

It starts its own stack on REDIS_URL (default redis://127.0.0.1:6379/15) under a unique
MEOW_KEY_PREFIX / MEOW_QUEUE: gunicorn as tests/e2e/conftest.start_api starts it (2 gevent
workers, service/gunicorn_conf.py; rate limits off, stream caps per address and token raised) and
one `meow worker` (round scoring and the next deal are worker jobs). Both logs go to a temp
directory and are summarised at the end (tracebacks counted by exception and service frame);
only keys under its own prefix are deleted. The open-file limit is raised to the hard limit
(children inherit it).

The streams are held by ``--client-procs`` asyncio processes (default: one per 5,000 streams), each
stream a raw ``loop.create_connection`` bound to one of ``--addresses`` loopback source addresses
(127.0.0.2, 127.0.0.3, ...), sending a minimal HTTP/1.1 GET with ``Accept: text/event-stream``
from the game's current version and scanning the chunked body for ``data: {`` lines. All streams
are spectators (no token). They are opened ``--batch`` at a time (all client processes together);
a refused open (429/500) is retried a second later, so every window has its full N, and the
first attempt's refusals are reported. A closed stream is closed with a FIN, as a browser does.

Phase A (``--streams``, a sweep): N streams over ``--games`` games, a writer playing random legal
moves for the two human seats of each game at ``--rate`` moves/s per game. Per N it reports:
delivery latency (receipt time in the client minus the event's ``at``: same clock; ``at`` has
millisecond resolution and is taken just before the append, so a figure includes the append, the
feed read, the fan-out and the client's own scheduling), /healthz latency (a fresh connection
every ``--health-ms``), the gunicorn workers' CPU (utime+stime from /proc), the client
processes' CPU, Redis' CPU, CPU used by processes the bench did not start (on a shared machine
that is what spoils a figure), the API workers' RSS at the end (streams still open) and its
growth per stream, the workers' fds by kind (HTTP connections, Redis connections, closed-but-held
sockets), frames received against frames expected (events appended x streams on the game),
sequence gaps, dropped streams, round-end pauses, and how long the server took to let closed
streams go (it notices a closed peer only when a write fails: at a frame or heartbeat).

Phase B: accepted moves/s on unwatched games (``--drivers`` threads, one game each, random legal
moves as fast as they go; a finished round is replaced by a fresh game, as in bench/api.py) with
no stream open, then with ``--idle-streams`` idle streams open on other games; interleaved
three times (none, idle, none, idle, none, idle), medians and their ratio.

Phase C: ``--verify-streams`` streams over ``--verify-games`` games at ``--rate``, without and then
with a loop of ``GET /verify`` of a finished game of about ``--verify-events`` events (built
in-process with GameService against the same Redis and prefix in a few seconds; the worker scores
its rounds). Reports /healthz and delivery p50/p99 of both windows and the verify's own duration.

Each window first waits up to ``--wait-quiet`` seconds for other processes to calm down.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import math
import multiprocessing as mp
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from array import array
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import children_of, machine_cpu, proc_cpu_s  # noqa: E402
from tools.stack import free_port, start_api, wait_ready  # noqa: E402

HOST = "127.0.0.1"
# Humans never time out; no grace, no intermission: a game only moves when the writer moves it.
OPTIONS = {"announce_grace_ms": 0, "round_intermission_s": 0, "turn_timeout_s": None}
STREAM_GAME_OPTIONS = {**OPTIONS, "penalty_limit": 1000}  # a match of ~10,000 moves: never ends mid-run
ROUND_OVER = ("scoring", "intermission")
HTTP_TIMEOUT = 30


# ====================================================================== small helpers
def pct(values: Any, q: float) -> float:
    """The q-quantile (0..1) of the values by nearest rank; nan when empty. Sorts a copy."""
    if not len(values):
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def raise_nofile() -> int:
    """Raise the open-file soft limit to the hard limit (children inherit it); returns the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def rss_kb(pids: list[int]) -> int:
    """Sum of VmRSS of the processes, in kB."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except (OSError, ValueError):
            pass
    return total


def tcp_sockets() -> dict[str, tuple[int, int, str]]:
    """inode -> (local port, remote port, state) of every TCP socket, from /proc/net/tcp{,6}."""
    out: dict[str, tuple[int, int, str]] = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as fh:
                next(fh)
                for line in fh:
                    f = line.split()
                    out[f[9]] = (int(f[1].rsplit(":", 1)[1], 16), int(f[2].rsplit(":", 1)[1], 16), f[3])
        except (OSError, IndexError, ValueError):
            pass
    return out


def fd_kinds(pid: int, api_port: int, redis_port: int, tcp: dict[str, tuple[int, int, str]]) -> Counter:
    """A process's fds by kind: "http" (connections on the API port, CLOSE_WAIT included), "redis",
    "closed" (sockets the kernel has already closed — no longer in the TCP tables — whose fd the
    process still holds: a stream whose end it has noticed but not yet cleaned up), "other"."""
    kinds: Counter = Counter()
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return kinds
    for fd in fds:
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if not link.startswith("socket:["):
            kinds["other"] += 1
            continue
        sock = tcp.get(link[8:-1])
        if sock is None:
            kinds["closed"] += 1
        elif sock[0] == api_port and sock[2] != "0A":  # not the listening socket
            kinds["http"] += 1
        elif sock[1] == redis_port:
            kinds["redis"] += 1
        else:
            kinds["other"] += 1
    return kinds


def held_streams(stack: Stack) -> int:
    """Connections the API workers still hold, open or closed but not yet cleaned up."""
    tcp = tcp_sockets()
    return sum(k["http"] + k["closed"] for k in (fd_kinds(w, stack.port, stack.redis_port, tcp) for w in stack.workers()))


_AT_CACHE: dict[str, float] = {}


def at_epoch(at: str) -> float:
    """An event's RFC 3339 ``at`` ("2026-01-01T12:00:00.123Z") as epoch seconds, cached: every
    stream of a game receives the same string."""
    t = _AT_CACHE.get(at)
    if t is None:
        if len(_AT_CACHE) > 100_000:
            _AT_CACHE.clear()
        t = _AT_CACHE[at] = datetime.fromisoformat(at).timestamp()
    return t


# ====================================================================== the stream clients (asyncio processes)
class SSEStream(asyncio.Protocol):
    """One open event stream: sends the GET, checks the status, then scans ``data: {`` lines."""

    def __init__(self, client: StreamClient, path: str, after: int) -> None:
        self.client = client
        self.request = (f"GET {path} HTTP/1.1\r\nHost: {HOST}:{client.port}\r\n"
                        "Accept: text/event-stream\r\n\r\n").encode()
        self.last_seq = after
        self.buf = b""
        self.status: int | None = None
        self.ready: asyncio.Future = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.closing = False  # True once we close it ourselves
        self.last_type = ""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        now = time.time()  # one receipt time for everything in this read
        c = self.client
        c.bytes += len(data)
        buf = self.buf + data
        if self.status is None:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                self.buf = buf
                return
            try:
                self.status = int(buf[:end].split(b" ", 2)[1])
            except (IndexError, ValueError):
                self.status = -1
            if not self.ready.done():
                self.ready.set_result(self.status)
            if self.status != 200:
                self.closing = True
                self.transport.close()
                return
            buf = buf[end + 4:]
        # The body is chunked; chunk-size lines are hex digits and never start with "data: {",
        # and a frame is never split by a chunk boundary (one chunk per yielded frame group).
        end = buf.rfind(b"\n")
        if end < 0:
            self.buf = buf
            return
        self.buf = buf[end + 1:]
        block = buf[:end + 1]
        c.heartbeats += block.count(b": keep-alive")
        pos = block.find(b"data: {")
        while pos >= 0:
            eol = block.find(b"\n", pos)
            body = orjson.loads(block[pos + 6:eol])
            seq = body.get("seq")
            if "at" in body:
                c.frames += 1
                if c.measuring:
                    c.lat.append((now - at_epoch(body["at"])) * 1000)
            if isinstance(seq, int):
                if seq > self.last_seq + 1:
                    c.gaps += seq - self.last_seq - 1
                elif seq <= self.last_seq:
                    c.dupes += 1
                self.last_seq = max(self.last_seq, seq)
            self.last_type = body.get("type") or body.get("code") or ""
            pos = block.find(b"data: {", eol)

    def connection_lost(self, exc: Exception | None) -> None:
        c = self.client
        if not self.ready.done():
            self.ready.set_result(0)
        if self.status == 200 and not self.closing:  # the server ended it (or the connection broke)
            c.dropped[f"{type(exc).__name__ if exc else 'closed by server'} after {self.last_type or 'no event'}"] += 1
        c.streams.discard(self)


class StreamClient:
    """The asyncio side of one client process: its streams, counters and the command pipe."""

    def __init__(self, conn: Any, port: int) -> None:
        self.conn = conn
        self.port = port
        self.streams: set[SSEStream] = set()
        self.reset()

    def reset(self) -> None:
        self.measuring = False
        self.lat = array("f")  # delivery latencies (ms) of frames received while measuring
        self.frames = self.heartbeats = self.bytes = self.gaps = self.dupes = 0
        self.dropped: Counter = Counter()
        self.lags: list[float] = []  # event-loop lag samples (ms) of a 50 ms ticker
        self.cpu0 = sum(os.times()[:2])
        self.t0 = time.perf_counter()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        self.done = loop.create_future()
        loop.add_reader(self.conn.fileno(), self._on_command)
        ticker = asyncio.create_task(self._tick())
        await self.done
        ticker.cancel()

    def _on_command(self) -> None:
        msg = self.conn.recv()
        asyncio.get_running_loop().create_task(self._serve(msg))

    async def _serve(self, msg: tuple) -> None:
        cmd, *args = msg
        if cmd == "open":
            out: Any = await self.open(*args)
        elif cmd == "mark":  # a measured window starts now
            self.reset()
            self.measuring = True
            out = len(self.streams)
        elif cmd == "collect":
            out = self.collect()
        elif cmd == "close":
            out = await self.close()
        else:  # quit
            await self.close()
            self.done.set_result(None)
            out = None
        self.conn.send(out)

    async def _tick(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.05)
            if self.measuring:
                self.lags.append((time.perf_counter() - t - 0.05) * 1000)

    async def open(self, specs: list[tuple[str, int, str]], batch: int, retries: int) -> dict[str, Any]:
        """Open (game, after, source address) streams, ``batch`` at a time, each waited for up to its
        headers. Refused or failed opens are retried ``retries`` times, a second apart, in batches
        again; the first attempt's refusals are what the report shows."""
        opened, open_ms, per_game = 0, [], Counter()
        refused: list[Counter] = []  # per attempt: status or exception name -> count
        loop = asyncio.get_running_loop()

        async def one(spec: tuple[str, int, str], failed: list, why: Counter) -> None:
            nonlocal opened
            gid, after, src = spec
            t0 = time.perf_counter()
            proto = SSEStream(self, f"/v1/games/{gid}/events?after={after}", after)
            try:
                await asyncio.wait_for(loop.create_connection(lambda: proto, HOST, self.port, local_addr=(src, 0)),
                                       HTTP_TIMEOUT)
                status = await asyncio.wait_for(proto.ready, HTTP_TIMEOUT)
            except (TimeoutError, OSError) as exc:
                why[type(exc).__name__] += 1
                failed.append(spec)
                if proto.transport:
                    proto.closing = True
                    proto.transport.abort()
                return
            open_ms.append((time.perf_counter() - t0) * 1000)
            if status == 200:
                opened += 1
                per_game[gid] += 1
                self.streams.add(proto)
            else:
                why[status] += 1
                failed.append(spec)

        todo = list(specs)
        for attempt in range(retries + 1):
            if attempt:
                await asyncio.sleep(1.0)
            failed: list = []
            why: Counter = Counter()
            for i in range(0, len(todo), batch):
                await asyncio.gather(*(one(spec, failed, why) for spec in todo[i:i + batch]))
            refused.append(why)
            todo = failed
            if not todo:
                break
        return {"opened": opened, "refused": refused, "open_ms": open_ms, "per_game": per_game}

    def collect(self) -> dict[str, Any]:
        self.measuring = False
        return {"lat": self.lat, "frames": self.frames, "heartbeats": self.heartbeats, "bytes": self.bytes,
                "gaps": self.gaps, "dupes": self.dupes, "dropped": self.dropped, "open": len(self.streams),
                "cpu": sum(os.times()[:2]) - self.cpu0, "wall": time.perf_counter() - self.t0,
                "lag_p99": pct(self.lags, .99), "lag_max": max(self.lags, default=float("nan"))}

    async def close(self) -> int:
        n = len(self.streams)
        for s in list(self.streams):
            s.closing = True
            s.transport.close()  # FIN, as a browser closing its tab
        self.streams.clear()
        await asyncio.sleep(0.2)
        return n


def client_main(conn: Any, port: int) -> None:
    """Entry point of a client process (spawned)."""
    raise_nofile()
    asyncio.run(StreamClient(conn, port).run())


class ClientPool:
    """The client processes; stream i goes to process i % K, source address i % A."""

    def __init__(self, n: int, port: int, addresses: list[str]) -> None:
        ctx = mp.get_context("spawn")
        self.addresses = addresses
        self.procs, self.conns = [], []
        for _ in range(n):
            mine, theirs = ctx.Pipe()
            p = ctx.Process(target=client_main, args=(theirs, port), daemon=True)
            p.start()
            theirs.close()
            self.procs.append(p)
            self.conns.append(mine)

    def ask(self, msgs: list[tuple]) -> list[Any]:
        for conn, msg in zip(self.conns, msgs):
            conn.send(msg)
        return [conn.recv() for conn in self.conns]

    def ask_all(self, *msg: Any) -> list[Any]:
        return self.ask([msg] * len(self.conns))

    def open(self, games: list[str], versions: dict[str, int], n: int, batch: int, retries: int) -> Opened:
        """n streams over the games (round robin), from their current versions."""
        k = len(self.conns)
        specs: list[list[tuple[str, int, str]]] = [[] for _ in range(k)]
        for i in range(n):
            gid = games[i % len(games)]
            specs[i % k].append((gid, versions[gid], self.addresses[i % len(self.addresses)]))
        t0 = time.perf_counter()
        outs = self.ask([("open", s, max(1, batch // k), retries) for s in specs])
        res = Opened(time.perf_counter() - t0, asked=n)
        for o in outs:
            res.opened += o["opened"]
            res.first_refused.update(o["refused"][0])
            res.attempts = max(res.attempts, len(o["refused"]))
            res.open_ms += o["open_ms"]
            res.per_game.update(o["per_game"])
        return res

    def stop(self) -> None:
        with contextlib.suppress(OSError, EOFError):
            self.ask_all("quit")
        for p in self.procs:
            p.join(5)
            if p.is_alive():
                p.terminate()


@dataclass
class Opened:
    seconds: float
    asked: int = 0
    opened: int = 0
    first_refused: Counter = field(default_factory=Counter)  # first attempt: HTTP status / exception -> count
    attempts: int = 1
    open_ms: list[float] = field(default_factory=list)
    per_game: Counter = field(default_factory=Counter)  # streams open per game


# ====================================================================== HTTP players (threads, requests)
class SetupFailed(Exception):
    pass


def session() -> requests.Session:
    s = requests.Session()
    s.trust_env = False
    return s


def new_table(base: str, http: requests.Session, options: dict[str, Any]) -> tuple[str, list[str]]:
    """A started prsi game with two human seats: (id, [owner's seat-0 token, seat-1 token])."""
    r = http.post(f"{base}/v1/games", json={"variant": "prsi", "options": options}, timeout=HTTP_TIMEOUT)
    if r.status_code != 201:
        raise SetupFailed(f"POST games {r.status_code}: {r.text[:200]}")
    gid, owner = r.json()["id"], r.json()["owner_token"]
    auth = {"Authorization": f"Bearer {owner}"}
    r0 = http.post(f"{base}/v1/games/{gid}/seats", json={"name": "p0"}, headers=auth, timeout=HTTP_TIMEOUT)
    r1 = http.post(f"{base}/v1/games/{gid}/seats", json={"name": "p1"}, timeout=HTTP_TIMEOUT)
    r2 = http.post(f"{base}/v1/games/{gid}/start", headers=auth, timeout=HTTP_TIMEOUT)
    if (r0.status_code, r1.status_code, r2.status_code) != (201, 201, 200):
        raise SetupFailed(f"seats/start {r0.status_code}/{r1.status_code}/{r2.status_code}: {r2.text[:200]}")
    return gid, [owner, r1.json()["token"]]


class Table:
    """Two human seats of one game: plays a random legal action of whoever's turn it is.

    ``step`` returns the number of events the move appended (0: no move, e.g. the round is being
    scored by the worker, or the move was refused). ``round_over`` is set at the end of a round."""

    def __init__(self, base: str, gid: str, tokens: list[str], rng: random.Random) -> None:
        self.base, self.gid, self.tokens, self.rng = base, gid, tokens, rng
        self.turn: int | None = None
        self.legal: list[dict[str, Any]] | None = None  # the turn seat's legal actions, if known
        self.round_over = False
        self.finished = False
        self.moves = 0
        self.events = 0
        self.refused: Counter = Counter()

    def _auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def _look(self, http: requests.Session) -> None:
        r = http.get(f"{self.base}/v1/games/{self.gid}", headers=self._auth(0), timeout=HTTP_TIMEOUT)
        if r.status_code != 200:
            self.refused[f"GET view {r.status_code}"] += 1
            return
        view = r.json()
        self.finished = view["status"] == "finished"
        self.round_over = self.finished or view["phase"] in ROUND_OVER
        self.turn = (view.get("turn") or {}).get("seat")
        self.legal = view["you"]["legal_actions"] if self.turn == 0 else None

    def step(self, http: requests.Session) -> int:
        if self.turn is None:
            self._look(http)
            if self.turn is None or self.round_over:
                return 0
        seat = self.turn
        if self.legal is None:
            r = http.get(f"{self.base}/v1/games/{self.gid}/actions", headers=self._auth(seat), timeout=HTTP_TIMEOUT)
            if r.status_code != 200:
                self.refused[f"GET actions {r.status_code}"] += 1
                self.turn = None
                return 0
            self.legal = r.json()["legal_actions"]
        if not self.legal:
            self.turn = self.legal = None
            return 0
        r = http.post(f"{self.base}/v1/games/{self.gid}/actions", json=self.rng.choice(self.legal),
                      headers=self._auth(seat), timeout=HTTP_TIMEOUT)
        if r.status_code != 200:
            self.refused[f"POST actions {r.status_code}"] += 1
            self.turn = self.legal = None
            return 0
        body = r.json()
        game = body["game"]
        self.moves += 1
        self.events += len(body["events"])
        self.finished = game["status"] == "finished"
        self.round_over = self.finished or game["phase"] in ROUND_OVER
        self.turn = None if self.round_over else (game.get("turn") or {}).get("seat")
        self.legal = game["you"]["legal_actions"] if self.turn == seat else None
        return len(body["events"])


class Pacer:
    """The phase A/C writer: each table moves ``rate`` times a second (staggered), over a few threads.
    A table whose round is being scored is retried every 20 ms without losing its slot."""

    def __init__(self, tables: list[Table], rate: float, threads: int) -> None:
        self.tables = tables
        self.rate = rate
        self.stop_flag = threading.Event()
        self.errors: Counter = Counter()
        self.late: list[float] = []  # how late each move started (s)
        self.pauses: list[float] = []  # round ends: seconds from the last move of a round to the first of the next
        self.threads = [threading.Thread(target=self._run, args=(tables[i::threads],), daemon=True)
                        for i in range(min(threads, len(tables)))]

    def start(self) -> Pacer:
        self.t0 = time.perf_counter()
        self.moves0 = sum(t.moves for t in self.tables)
        self.events0 = sum(t.events for t in self.tables)
        for t in self.threads:
            t.start()
        return self

    def _run(self, mine: list[Table]) -> None:
        http = session()
        period = 1.0 / self.rate
        due = {id(t): self.t0 + random.random() * period for t in mine}
        paused: dict[int, float] = {}  # table -> when its round ended
        while not self.stop_flag.is_set():
            table = min(mine, key=lambda t: due[id(t)])
            wait = due[id(table)] - time.perf_counter()
            if wait > 0 and self.stop_flag.wait(wait):
                break
            self.late.append(max(0.0, -wait))
            try:
                if table.step(http) and id(table) in paused:
                    self.pauses.append(time.perf_counter() - paused.pop(id(table)))
            except (requests.RequestException, KeyError, ValueError) as exc:
                self.errors[type(exc).__name__] += 1
                table.turn = table.legal = None
            if table.finished:  # cannot happen within a run with STREAM_GAME_OPTIONS; stop moving it
                due[id(table)] = float("inf")
            elif table.round_over:  # the worker scores the round and deals the next: look again soon
                paused.setdefault(id(table), time.perf_counter())
                table.round_over = False
                table.turn = None
                due[id(table)] = time.perf_counter() + 0.02
            else:
                due[id(table)] += period
        http.close()

    def stop(self) -> tuple[int, int, float]:
        """Stop; returns (moves, events, seconds) of the run."""
        self.stop_flag.set()
        for t in self.threads:
            t.join(HTTP_TIMEOUT)
        wall = time.perf_counter() - self.t0
        return (sum(t.moves for t in self.tables) - self.moves0, sum(t.events for t in self.tables) - self.events0, wall)


class HealthSampler:
    """GET /healthz on a fresh connection every ``period_s`` (so it lands on whichever worker accepts)."""

    def __init__(self, port: int, period_s: float) -> None:
        self.port, self.period_s = port, period_s
        self.lat: list[float] = []  # ms
        self.errors: Counter = Counter()
        self.stop_flag = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> HealthSampler:
        self.thread.start()
        return self

    def _run(self) -> None:
        nxt = time.perf_counter()
        while not self.stop_flag.is_set():
            t0 = time.perf_counter()
            try:
                conn = http.client.HTTPConnection(HOST, self.port, timeout=HTTP_TIMEOUT)
                conn.request("GET", "/healthz")
                resp = conn.getresponse()
                resp.read()
                conn.close()
                self.lat.append((time.perf_counter() - t0) * 1000)
                if resp.status != 200:
                    self.errors[f"healthz {resp.status}"] += 1
            except OSError as exc:
                self.errors[f"healthz {type(exc).__name__}"] += 1
            nxt += self.period_s
            self.stop_flag.wait(max(0.0, nxt - time.perf_counter()))

    def stop(self) -> None:
        self.stop_flag.set()
        self.thread.join(HTTP_TIMEOUT)


class VerifyLoop:
    """GET /v1/games/{id}/verify of a finished game, back to back, in one thread."""

    def __init__(self, base: str, gid: str, token: str) -> None:
        self.url = f"{base}/v1/games/{gid}/verify"
        self.token = token
        self.durations: list[float] = []  # s, successful verifies
        self.errors: Counter = Counter()
        self.stop_flag = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def once(self, http: requests.Session) -> dict[str, Any] | None:
        t0 = time.perf_counter()
        try:
            r = http.get(self.url, headers={"Authorization": f"Bearer {self.token}"}, timeout=300)
        except requests.RequestException as exc:
            self.errors[type(exc).__name__] += 1
            return None
        if r.status_code != 200:
            self.errors[f"verify {r.status_code}"] += 1
            return None
        self.durations.append(time.perf_counter() - t0)
        return r.json()

    def start(self) -> VerifyLoop:
        self.thread.start()
        return self

    def _run(self) -> None:
        http = session()
        while not self.stop_flag.is_set():
            self.once(http)
        http.close()

    def stop(self) -> None:
        """Stop asking; an in-flight verify is waited for (it keeps the server busy anyway)."""
        self.stop_flag.set()
        self.thread.join(300)


def drive(base: str, drivers: int, seconds: float, seed: int) -> tuple[int, float, Counter]:
    """Phase B: ``drivers`` threads, one fresh game each, moving as fast as they can; a finished
    round is replaced by a fresh game (set-up time counted). Returns (moves, wall s, errors)."""
    errors: Counter = Counter()
    counts = [0] * drivers
    window: dict[str, float] = {}

    def open_window() -> None:  # once every table is set up, before anyone is released
        window["t0"] = time.perf_counter()
        window["end"] = window["t0"] + seconds

    barrier = threading.Barrier(drivers, action=open_window)

    def run(i: int) -> None:
        http = session()
        rng = random.Random(seed * 1000 + i)
        table: Table | None = None
        try:
            table = Table(base, *new_table(base, http, OPTIONS), rng)
        except (SetupFailed, requests.RequestException) as exc:
            errors[f"setup {type(exc).__name__}"] += 1
        barrier.wait()
        while table is not None and time.perf_counter() < window["end"]:
            try:
                table.step(http)
                if table.round_over:
                    counts[i] += table.moves
                    errors.update(table.refused)
                    table = None
                    table = Table(base, *new_table(base, http, OPTIONS), rng)
            except (SetupFailed, requests.RequestException, KeyError, ValueError) as exc:
                errors[type(exc).__name__] += 1
                if table is not None:
                    table.turn = table.legal = None
        if table is not None:
            counts[i] += table.moves
            errors.update(table.refused)
        http.close()

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(drivers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts), time.perf_counter() - window["t0"], errors


# ====================================================================== the stack
class Stack:
    """Gunicorn (as tests/e2e/conftest.start_api starts it) + one `meow worker`, logs in temp files."""

    def __init__(self, redis_url: str, prefix: str, stream_cap: int) -> None:
        import redis

        self.redis_url, self.prefix = redis_url, prefix
        self.redis = redis.Redis.from_url(redis_url)
        self.redis.ping()
        self.port = free_port()
        self.redis_port = urlsplit(redis_url).port or 6379
        self.base = f"http://{HOST}:{self.port}"
        self.logdir = tempfile.mkdtemp(prefix="bench-streams-")
        self.web_log = os.path.join(self.logdir, "gunicorn.log")
        self.worker_log = os.path.join(self.logdir, "worker.log")
        self.env = dict(os.environ, REDIS_URL=redis_url, MEOW_KEY_PREFIX=prefix, MEOW_QUEUE=prefix,
                        PYTHONPATH=str(ROOT), MEOW_MAX_STREAMS_PER_ADDRESS=str(stream_cap),
                        MEOW_MAX_STREAMS_PER_TOKEN=str(stream_cap),
                        MEOW_RATE_LIMITS="off",  # a load test: the limits would be what it measures
                        # start_api's command line, with the workers' output in a file we can scan
                        GUNICORN_CMD_ARGS=f"--error-logfile {self.web_log} --capture-output")
        self.web = start_api(self.env, self.port)
        with open(self.worker_log, "wb") as fh:
            self.worker = subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env=self.env,
                                           cwd=ROOT, stdout=fh, stderr=subprocess.STDOUT)
        try:
            wait_ready(self.base, [self.web, self.worker])
        except BaseException:
            self.stop()
            raise
        deadline = time.monotonic() + 10
        while len(self.workers()) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)

    def workers(self) -> list[int]:
        return sorted(children_of(self.web.pid))

    def redis_cpu(self) -> float:
        info = self.redis.info("cpu")
        return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])

    def versions(self, games: list[str]) -> dict[str, int]:
        from service.eventstore.keys import Keys

        keys = Keys(self.prefix)
        pipe = self.redis.pipeline(transaction=False)
        for gid in games:
            pipe.xrevrange(keys.stream(gid), count=1)
        return {gid: (int(last[0][0].split(b"-")[0]) if last else 0) for gid, last in zip(games, pipe.execute())}

    def log_problems(self) -> Counter:
        """Trouble in both logs, counted by kind. Every top-level line but gunicorn's [INFO] ones
        counts (numbers and ids folded); a traceback is appended to the line before it, as its
        last exception (chained ones) at the two innermost frames under service/ or workers/."""
        frame = re.compile(r'File "[^"]*/((?:service|workers)/[^"]+)", line (\d+), in (\S+)')
        chained = ("During handling of the above exception", "The above exception was the direct cause")
        out: Counter = Counter()
        for name in (self.web_log, self.worker_log):
            try:
                lines = Path(name).read_text(errors="replace").splitlines()
            except OSError:
                continue
            log = os.path.basename(name)
            message: str | None = None  # the last top-level line, not yet counted
            tb: str | None = None  # the traceback that followed it
            frames: list[str] = []
            in_tb = False

            def flush() -> None:
                nonlocal message, tb
                if message is not None or tb is not None:
                    out[f"{log}: {message or '-'}" + (f" | {tb}" if tb else "")] += 1
                message = tb = None

            for line in lines:
                if line.startswith("Traceback"):
                    in_tb, frames = True, []
                elif in_tb:
                    if m := frame.search(line):
                        frames.append(f"{m.group(1)}:{m.group(2)} {m.group(3)}")
                    elif line and not line[0].isspace():  # the exception line ends this traceback
                        tb = f"{line.strip()[:120]} at {' > '.join(frames[-2:]) or '?'}"
                        in_tb = False
                elif not line.strip() or line.startswith(chained) or line[0].isspace():
                    continue
                else:
                    flush()
                    if "[INFO]" not in line:
                        message = re.sub(r"\b[0-9a-f]{8,}\b|\b\d+\b|(?<=shard )[0-9a-f]\b", "#", line.strip())[:100]
            flush()
        return out

    def stop(self) -> int:
        for p in (self.web, self.worker):
            if p.poll() is None:
                p.terminate()
        for p in (self.web, self.worker):
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
        deleted = 0
        batch: list[bytes] = []
        for key in self.redis.scan_iter(match=f"*{self.prefix}*", count=1000):
            batch.append(key)
            if len(batch) >= 500:
                deleted += self.redis.delete(*batch)
                batch.clear()
        if batch:
            deleted += self.redis.delete(*batch)
        self.redis.close()
        return deleted


@dataclass
class Snapshot:
    """Cumulative counters at one instant."""

    t: float
    server_cpu: float
    worker_cpu: float
    redis_cpu: float
    bench_cpu: float
    machine: tuple[float, float]

    def busy_since(self, s0: Snapshot) -> float:
        """Cores busy (all processes on the machine) between s0 and this snapshot."""
        busy, total = self.machine[0] - s0.machine[0], self.machine[1] - s0.machine[1]
        return busy / max(1.0, total) * (os.cpu_count() or 1)

    @classmethod
    def take(cls, stack: Stack) -> Snapshot:
        return cls(time.perf_counter(), proc_cpu_s(stack.workers()), proc_cpu_s([stack.worker.pid]),
                   stack.redis_cpu(), sum(os.times()[:2]), machine_cpu())


def wait_quiet(stack: Stack, pool: ClientPool, timeout_s: float, below: float = 0.25) -> float:
    """Seconds waited (up to ``timeout_s``) until processes this bench did not start used less
    than ``below`` of a core over one second: on a shared machine, windows start in a lull."""
    t0 = time.perf_counter()
    mine = lambda: proc_cpu_s([*stack.workers(), stack.worker.pid, *(p.pid for p in pool.procs)])  # noqa: E731
    while time.perf_counter() - t0 < timeout_s:
        a0, r0, b0, m0 = mine(), stack.redis_cpu(), sum(os.times()[:2]), machine_cpu()
        time.sleep(1.0)
        m1 = machine_cpu()
        machine = (m1[0] - m0[0]) / max(1.0, m1[1] - m0[1]) * (os.cpu_count() or 1)
        ours = mine() - a0 + stack.redis_cpu() - r0 + sum(os.times()[:2]) - b0
        if machine - ours < below:
            break
    return time.perf_counter() - t0


def wait_released(stack: Stack, timeout_s: float, base: int) -> tuple[float, int]:
    """After the clients closed their streams: seconds until the API workers held no more
    connections than ``base`` (their fds closed, not just the TCP connections), or timeout_s,
    and how many they still held then."""
    t0 = time.perf_counter()
    held = held_streams(stack)
    while held > base and time.perf_counter() - t0 < timeout_s:
        time.sleep(0.5)
        held = held_streams(stack)
    return time.perf_counter() - t0, held


# ====================================================================== measured windows
@dataclass
class Window:
    name: str
    streams: int
    games: int
    wall: float = 0.0
    opened: Opened | None = None
    moves: int = 0
    events: int = 0
    expected_frames: int = 0
    frames: int = 0
    heartbeats: int = 0
    lat: list[float] = field(default_factory=list)
    health: list[float] = field(default_factory=list)
    gaps: int = 0
    dupes: int = 0
    still_open: int = 0
    dropped: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    server_cpu: float = 0.0
    worker_cpu: float = 0.0
    redis_cpu: float = 0.0
    client_cpu: list[float] = field(default_factory=list)
    bench_cpu: float = 0.0
    machine_busy: float = 0.0
    rss_mb: float = 0.0
    rss_before_mb: float = 0.0
    fds: list[Counter] = field(default_factory=list)  # per API worker: fds by kind
    lag_p99: float = float("nan")
    writer_late_p99: float = float("nan")
    pauses: list[float] = field(default_factory=list)
    waited: float = 0.0  # for a quiet machine before the window
    verify_s: list[float] = field(default_factory=list)
    release: tuple[float, int] | None = None

    @property
    def other(self) -> float:
        """Core-seconds used by processes this bench did not start, over the window."""
        ours = self.server_cpu + self.worker_cpu + self.redis_cpu + sum(self.client_cpu) + self.bench_cpu
        return max(0.0, self.machine_busy * self.wall - ours)


def measure(stack: Stack, pool: ClientPool, name: str, tables: list[Table], opened: Opened, seconds: float,
            args: argparse.Namespace, rss_before_kb: int, verify: VerifyLoop | None = None) -> Window:
    """One window: writer at ``args.rate`` on the tables, /healthz sampled, optionally the verify loop."""
    games = [t.gid for t in tables]
    w = Window(name, opened.opened, len(games), opened=opened, rss_before_mb=rss_before_kb / 1024)
    w.waited = wait_quiet(stack, pool, args.wait_quiet)
    v0 = stack.versions(games)
    pool.ask_all("mark")
    s0 = Snapshot.take(stack)
    health = HealthSampler(stack.port, args.health_ms / 1000).start()
    writer = Pacer(tables, args.rate, args.writer_threads).start()
    if verify:
        verify.start()
    time.sleep(seconds)
    w.moves, w.events, _ = writer.stop()
    health.stop()
    if verify:
        verify.stop()
    time.sleep(args.settle)  # let the last frames arrive
    v1 = stack.versions(games)
    # frames the clients should have got: every event appended in the window, to every stream of its game
    w.expected_frames = sum((v1[g] - v0[g]) * opened.per_game[g] for g in games)
    outs = pool.ask_all("collect")
    s1 = Snapshot.take(stack)
    workers = stack.workers()
    w.rss_mb = rss_kb(workers) / 1024
    tcp = tcp_sockets()
    w.fds = [fd_kinds(p, stack.port, stack.redis_port, tcp) for p in workers]
    w.wall = s1.t - s0.t
    w.server_cpu, w.worker_cpu = s1.server_cpu - s0.server_cpu, s1.worker_cpu - s0.worker_cpu
    w.redis_cpu, w.bench_cpu = s1.redis_cpu - s0.redis_cpu, s1.bench_cpu - s0.bench_cpu
    w.machine_busy = s1.busy_since(s0)
    for o in outs:
        w.lat.extend(o["lat"])
        w.frames += o["frames"]
        w.heartbeats += o["heartbeats"]
        w.gaps += o["gaps"]
        w.dupes += o["dupes"]
        w.still_open += o["open"]
        w.dropped.update(o["dropped"])
        w.client_cpu.append(o["cpu"])
    lags = [o["lag_p99"] for o in outs if not math.isnan(o["lag_p99"])]
    w.lag_p99 = max(lags, default=float("nan"))
    w.health = health.lat
    w.errors.update(health.errors)
    w.errors.update(writer.errors)
    for t in tables:
        w.errors.update(t.refused)
        t.refused.clear()
    w.writer_late_p99 = pct(writer.late, .99) * 1000 if writer.late else float("nan")
    w.pauses = writer.pauses
    if verify:
        w.verify_s = list(verify.durations)
        w.errors.update(verify.errors)
    return w


def open_streams(stack: Stack, pool: ClientPool, games: list[str], n: int, args: argparse.Namespace) -> Opened:
    print(f"  opening {n} streams over {len(games)} games, {args.batch} at a time ...", flush=True)
    res = pool.open(games, stack.versions(games), n, args.batch, args.open_retries)
    extra = f"; first attempt refused {dict(res.first_refused)}, {res.attempts} attempts" if res.first_refused else ""
    print(f"  {res.opened}/{n} open in {res.seconds:.1f} s (open p50 {pct(res.open_ms, .5):.0f} ms, "
          f"p99 {pct(res.open_ms, .99):.0f} ms){extra}", flush=True)
    return res


def close_streams(stack: Stack, pool: ClientPool, args: argparse.Namespace, base_conns: int) -> tuple[float, int]:
    """Close every stream; wait until the server let the connections go (it notices a closed peer
    at its next heartbeat write) and its workers are quiet again (their clean-up runs after the
    socket is closed)."""
    closed = sum(pool.ask_all("close"))
    release = wait_released(stack, args.release_timeout, base_conns)
    quiet = settle(stack, args.release_timeout)
    print(f"  closed {closed} streams; {release[0]:.1f} s later the API workers held {release[1]} connections, "
          f"{quiet:.1f} s after that they were quiet", flush=True)
    return release


def settle(stack: Stack, timeout_s: float, below: float = 0.10) -> float:
    """Seconds until the API workers used less than ``below`` of a core over half a second."""
    t0 = time.perf_counter()
    workers = stack.workers()
    while time.perf_counter() - t0 < timeout_s:
        c0 = proc_cpu_s(workers)
        time.sleep(0.5)
        if proc_cpu_s(workers) - c0 < below * 0.5:
            break
    return time.perf_counter() - t0


def play_to_the_end(svc: Any, limit: int, deadline: float) -> tuple[str, str, int] | None:
    """One 2-human prsi match with this penalty limit, random legal moves, in-process; the running
    worker scores each round and deals the next. (id, owner token, events) or None at the deadline."""
    out = svc.create("prsi", {**OPTIONS, "penalty_limit": limit}, None, None, None)
    gid, owner = out.game_id, out.extra["owner_token"]
    svc.join(gid, svc.authenticate(gid, owner), "v0", None, None)
    other = svc.join(gid, svc.authenticate(gid, None), "v1", None, None).extra["token"]
    svc.start(gid, svc.authenticate(gid, owner), None, None)
    callers = [svc.authenticate(gid, owner), svc.authenticate(gid, other)]
    rng = random.Random(limit)
    while svc.load(gid).status != "finished":
        if time.perf_counter() > deadline:
            return None
        moved = False
        for caller in callers:
            _, legal = svc.legal_actions(gid, caller)
            if legal:
                try:
                    svc.act(gid, caller, rng.choice(legal), None, None)
                    moved = True
                except Exception:  # noqa: BLE001, S110 - e.g. a race with the worker's deal: look again
                    pass
                break
        if not moved:
            time.sleep(0.002)  # the worker is scoring the round or dealing the next
    return gid, owner, svc.load(gid).version


def build_verify_game(stack: Stack, target: int, budget_s: float) -> tuple[str, str, int, float] | None:
    """A finished match of about ``target`` events, built with GameService against the same Redis
    and prefix (much faster than over HTTP). Random prsi yields ~22 events per point of the
    penalty limit with a wide spread, so the limit follows from the target and a match that comes
    out under 80% of it is followed by another with a higher limit while the budget lasts; the
    largest is used and its actual event count reported. None if none finished within ``budget_s``."""
    from service.settings import Settings
    from service.wiring import build_service

    svc = build_service(Settings(redis_url=stack.redis_url, key_prefix=stack.prefix, queue_name=stack.prefix))
    t0 = time.perf_counter()
    best: tuple[str, str, int] | None = None
    limit = max(50, min(1000, round(target / 22)))
    try:
        while best is None or best[2] < 0.8 * target:
            got = play_to_the_end(svc, limit, t0 + budget_s)
            if got is None:
                break
            if best is None or got[2] > best[2]:
                best = got
            limit = min(1000, round(limit * 1.3))
    finally:
        svc.store.r.close()
    return (*best, time.perf_counter() - t0) if best else None


def warm_up(stack: Stack, pool: ClientPool, games: list[str], args: argparse.Namespace) -> None:
    """Start both API workers' feed hubs (their shard readers start with the first stream of the
    process) gently, 10 streams at a time, so no measured window includes a hub's start."""
    res = pool.open(games, stack.versions(games), 40, 10, args.open_retries)
    time.sleep(1.0)
    pool.ask_all("close")
    print(f"  warm-up: {res.opened} streams opened and closed (feed hubs started)", flush=True)


# ====================================================================== reporting
def f1(x: float) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.1f}"


def print_stream_table(title: str, rows: list[Window]) -> None:
    print(f"\n{title}")
    head = (f"{'window':<12} {'streams':>7} {'games':>5} {'moves/s':>7} {'ev/s':>6} {'frames/s':>8} {'recv/exp':>8} "
            f"{'dlv p50':>7} {'dlv p99':>7} {'dlv max':>7} {'hz p50':>6} {'hz p99':>7} {'srv cpu':>7} {'cli cpu':>7} "
            f"{'rds cpu':>7} {'other':>6} {'machine':>7} {'API MB':>7} {'kB/str':>6}")
    print(head)
    print("-" * len(head))
    for w in rows:
        pc = lambda x: f"{100 * x / w.wall:.0f}%" if w.wall > 0 else "-"  # noqa: E731 - % of one core
        recv = f"{100 * w.frames / w.expected_frames:.1f}%" if w.expected_frames > 0 else "-"
        per = (w.rss_mb - w.rss_before_mb) * 1024 / w.streams if w.streams else float("nan")
        print(f"{w.name:<12} {w.streams:>7} {w.games:>5} {w.moves / w.wall:>7.1f} {w.events / w.wall:>6.1f} "
              f"{w.frames / w.wall:>8.0f} {recv:>8} {f1(pct(w.lat, .5)):>7} {f1(pct(w.lat, .99)):>7} "
              f"{f1(max(w.lat, default=float('nan'))):>7} {f1(pct(w.health, .5)):>6} {f1(pct(w.health, .99)):>7} "
              f"{pc(w.server_cpu):>7} {pc(sum(w.client_cpu)):>7} {pc(w.redis_cpu):>7} {pc(w.other):>6} "
              f"{100 * w.machine_busy:>6.0f}% {w.rss_mb:>7.0f} {f1(per):>6}")


def print_stream_details(rows: list[Window]) -> None:
    for w in rows:
        fds = " / ".join(", ".join(f"{k} {n}" for k, n in sorted(f.items())) for f in w.fds)
        bits = [f"{w.frames} frames, {w.heartbeats} heartbeats, {len(w.health)} healthz samples",
                f"{w.still_open} streams still open at the end; API workers' fds: {fds}"]
        if w.opened and w.opened.first_refused:
            bits.append(f"opening: first attempt refused {dict(w.opened.first_refused)}, open after "
                        f"{w.opened.attempts} attempts {w.opened.opened}/{w.opened.asked}")
        if w.gaps or w.dupes:
            bits.append(f"sequence gaps {w.gaps}, duplicates {w.dupes}")
        if w.dropped:
            bits.append("dropped: " + ", ".join(f"{k} x{n}" for k, n in w.dropped.most_common(5)))
        if w.errors:
            bits.append("errors: " + ", ".join(f"{k} x{n}" for k, n in w.errors.most_common(8)))
        bits.append(f"client procs cpu {', '.join(f'{100 * c / w.wall:.0f}%' for c in w.client_cpu)}, "
                    f"client loop lag p99 {f1(w.lag_p99)} ms; writer start lateness p99 {f1(w.writer_late_p99)} ms; "
                    f"rq worker cpu {100 * w.worker_cpu / w.wall:.0f}%, bench main cpu {100 * w.bench_cpu / w.wall:.0f}%")
        if w.pauses:
            bits.append(f"{len(w.pauses)} round ends, next deal's first move after p50 {statistics.median(w.pauses):.2f} s, "
                        f"max {max(w.pauses):.2f} s")
        if w.waited >= 1.5:
            bits.append(f"waited {w.waited:.0f} s for a quiet machine first")
        if w.release:
            bits.append(f"after close, the API workers released the streams' fds in {w.release[0]:.1f} s "
                        f"({w.release[1]} still held then)")
        if w.verify_s:
            bits.append(f"verify x{len(w.verify_s)}: p50 {statistics.median(w.verify_s):.2f} s, "
                        f"max {max(w.verify_s):.2f} s")
        print(f"  [{w.name}] " + "; ".join(bits))


def legend() -> None:
    print("\n(dlv: delivery latency in ms, client receipt time minus the event's `at` (same clock, `at` has ms"
          "\n resolution and is taken just before the append); hz: GET /healthz on a fresh connection, ms;"
          "\n recv/exp: frames received / events appended in the window x streams on that game; moves/s and ev/s:"
          "\n the writer's accepted moves and the events they appended; cpu: % of one core over the window —"
          "\n srv: gunicorn workers, cli: the stream-client processes, rds: the whole Redis server, other: processes this"
          "\n bench did not start (a busy machine makes every figure worse); machine: all cores busy; API MB: RSS of"
          "\n the gunicorn workers at the end, streams open; kB/str: its growth since before the streams opened, per"
          f"\n stream. This machine has {os.cpu_count()} cores shared by everything.)")


# ====================================================================== main
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="smoke test: small sizes, short windows")
    p.add_argument("--streams", default="1000,5000,10000", help="phase A sweep: stream counts (default 1000,5000,10000)")
    p.add_argument("--games", type=int, default=50, help="phase A: games the streams watch (default 50)")
    p.add_argument("--rate", type=float, default=1.0, help="moves/s per watched game (default 1)")
    p.add_argument("--seconds", type=float, default=30.0, help="phase A window (default 30; streams end at 300 s)")
    p.add_argument("--batch", type=int, default=200, help="streams opened at a time (default 200)")
    p.add_argument("--open-retries", type=int, default=3, help="retries of refused opens, 1 s apart (default 3)")
    p.add_argument("--addresses", type=int, default=20, help="loopback source addresses 127.0.0.2.. (default 20)")
    p.add_argument("--client-procs", type=int, default=0, help="stream-client processes (default: 1 per 5000 streams)")
    p.add_argument("--writer-threads", type=int, default=16, help="threads of the paced writer (default 16)")
    p.add_argument("--health-ms", type=float, default=100.0, help="/healthz sampling period (default 100 ms)")
    p.add_argument("--settle", type=float, default=1.0, help="seconds after the writer stops before collecting")
    p.add_argument("--release-timeout", type=float, default=30.0,
                   help="after closing streams, wait up to this long for the server to let them go (default 30)")
    p.add_argument("--idle-streams", type=int, default=5000, help="phase B: idle streams (default 5000, capped to the "
                                                                   "largest phase A count that opened fully)")
    p.add_argument("--drivers", type=int, default=8, help="phase B: driver threads, one game each (default 8)")
    p.add_argument("--b-seconds", type=float, default=8.0, help="phase B window (default 8)")
    p.add_argument("--verify-streams", type=int, default=500, help="phase C streams (default 500)")
    p.add_argument("--verify-games", type=int, default=10, help="phase C games (default 10)")
    p.add_argument("--verify-events", type=int, default=10000, help="phase C: events of the verified game (default 10000)")
    p.add_argument("--build-budget", type=float, default=60.0, help="phase C: seconds allowed to build that game")
    p.add_argument("--c-seconds", type=float, default=20.0, help="phase C windows (default 20)")
    p.add_argument("--skip-a", action="store_true")
    p.add_argument("--skip-b", action="store_true")
    p.add_argument("--skip-c", action="store_true")
    p.add_argument("--wait-quiet", type=float, default=15.0,
                   help="before each window, wait up to this long for other processes to use < 1/4 core (default 15)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15"))
    args = p.parse_args(argv)
    if args.quick:
        args.streams, args.games, args.seconds = "200", 5, 5.0
        args.idle_streams, args.b_seconds, args.drivers = 200, 3.0, 4
        args.verify_streams, args.verify_games, args.verify_events, args.c_seconds = 100, 5, 2000, 5.0
        args.release_timeout, args.addresses, args.wait_quiet = 0.0, 4, 0.0
    args.sweep = [int(x) for x in str(args.streams).split(",") if x.strip()]
    args.addresses = max(1, min(250, args.addresses))
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    nofile = raise_nofile()
    most = max([*args.sweep, args.idle_streams if not args.skip_b else 0, args.verify_streams if not args.skip_c else 0])
    procs = args.client_procs or max(1, math.ceil(most / 5000))
    if most + 100 > nofile * procs:
        print(f"warning: {most} streams need more than the open-file limit {nofile} x {procs} client processes")
    prefix = f"meowbench-streams-{uuid.uuid4().hex[:8]}"
    addresses = [f"127.0.0.{2 + i}" for i in range(args.addresses)]
    print(f"Redis {args.redis_url}, key prefix {prefix}; open-file limit {nofile}; {procs} client process(es), "
          f"{len(addresses)} source addresses", flush=True)
    stack = Stack(args.redis_url, prefix, stream_cap=most + 1000)
    print(f"gunicorn (gevent, workers {stack.workers()}) on {stack.base}; worker pid {stack.worker.pid}; "
          f"logs in {stack.logdir}", flush=True)
    pool: ClientPool | None = None
    phase_a: list[Window] = []
    phase_b: list[tuple[str, int, float, int, float, float, Counter]] = []
    phase_c: list[Window] = []
    verify_info: tuple[str, str, int, float] | None = None
    verify_alone: list[float] = []
    try:
        pool = ClientPool(procs, stack.port, addresses)
        http = session()
        n_games = max(args.games, args.verify_games if not args.skip_c else 0)
        rng = random.Random(args.seed)
        tables = [Table(stack.base, *new_table(stack.base, http, STREAM_GAME_OPTIONS), random.Random(rng.random()))
                  for _ in range(n_games)]
        for t in tables[:3]:  # warm-up: imports, caches, connections
            t.step(http)
        http.close()
        base_conns = held_streams(stack)
        warm_up(stack, pool, [t.gid for t in tables], args)
        rss0 = rss_kb(stack.workers())
        print(f"{n_games} watched games set up; API workers RSS {rss0 / 1024:.0f} MB", flush=True)

        if not args.skip_c:
            print(f"\nbuilding a finished game of ~{args.verify_events} events for phase C ...", flush=True)
            verify_info = build_verify_game(stack, args.verify_events, args.build_budget)
            if verify_info:
                print(f"  game {verify_info[0]}: {verify_info[2]} events in {verify_info[3]:.1f} s", flush=True)
                probe = VerifyLoop(stack.base, verify_info[0], verify_info[1])
                with session() as http:
                    for _ in range(3):  # the verify alone, nothing else running
                        report = probe.once(http)
                verify_alone = probe.durations
                print(f"  verify alone: {', '.join(f'{d:.2f} s' for d in verify_alone)}; "
                      f"report ok={report and report.get('ok')} events={report and report.get('events')}", flush=True)
            else:
                print(f"  could not finish one within {args.build_budget:g} s: phase C skipped", flush=True)

        largest_full = 0
        if not args.skip_a:
            for n in args.sweep:
                print(f"\n[A] {n} streams", flush=True)
                rss_before = rss_kb(stack.workers())
                opened = open_streams(stack, pool, [t.gid for t in tables[:args.games]], n, args)
                w = measure(stack, pool, f"A {n}", tables[:args.games], opened, args.seconds, args, rss_before)
                print(f"  delivery p50 {f1(pct(w.lat, .5))} ms p99 {f1(pct(w.lat, .99))} ms; healthz p99 "
                      f"{f1(pct(w.health, .99))} ms; server cpu {100 * w.server_cpu / w.wall:.0f}%", flush=True)
                w.release = close_streams(stack, pool, args, base_conns)
                phase_a.append(w)
                if opened.opened == n:
                    largest_full = max(largest_full, n)

        if not args.skip_b:
            idle = min(args.idle_streams, largest_full) if largest_full else args.idle_streams
            print(f"\n[B] moves/s on {args.drivers} unwatched games: none / {idle} idle streams, x3", flush=True)
            for i, cond in enumerate(["none", "idle"] * 3):
                opened_n = 0
                if cond == "idle":
                    opened_n = open_streams(stack, pool, [t.gid for t in tables[:args.games]], idle, args).opened
                waited = wait_quiet(stack, pool, args.wait_quiet)
                pool.ask_all("mark")
                s0 = Snapshot.take(stack)
                moves, wall, errs = drive(stack.base, args.drivers, args.b_seconds, args.seed + i)
                s1 = Snapshot.take(stack)
                clients = sum(o["cpu"] for o in pool.ask_all("collect"))
                dt = s1.t - s0.t
                srv = (s1.server_cpu - s0.server_cpu) / dt
                ours = (s1.server_cpu - s0.server_cpu + s1.worker_cpu - s0.worker_cpu + s1.redis_cpu - s0.redis_cpu
                        + s1.bench_cpu - s0.bench_cpu + clients) / dt
                machine = s1.busy_since(s0)
                print(f"  {cond:<4} ({opened_n} streams): {moves / wall:.0f} moves/s, server cpu {100 * srv:.0f}%, "
                      f"machine {100 * machine:.0f}%" + (f", errors {dict(errs)}" if errs else "")
                      + (f" (waited {waited:.0f} s for a quiet machine)" if waited >= 1.5 else ""), flush=True)
                if cond == "idle":
                    close_streams(stack, pool, args, base_conns)
                phase_b.append((cond, opened_n, moves / wall, moves, srv, max(0.0, machine - ours), errs))

        if not args.skip_c and verify_info:
            games = tables[:args.verify_games]
            print(f"\n[C] {args.verify_streams} streams over {len(games)} games, without / with a verify loop", flush=True)
            rss_before = rss_kb(stack.workers())
            opened = open_streams(stack, pool, [t.gid for t in games], args.verify_streams, args)
            phase_c.append(measure(stack, pool, "no verify", games, opened, args.c_seconds, args, rss_before))
            loop = VerifyLoop(stack.base, verify_info[0], verify_info[1])
            phase_c.append(measure(stack, pool, "verify loop", games, opened, args.c_seconds, args, rss_before, loop))
            phase_c[-1].release = close_streams(stack, pool, args, base_conns)
    finally:
        if pool is not None:
            pool.stop()
        problems = stack.log_problems()
        deleted = stack.stop()
        print(f"\ncleanup: deleted {deleted} keys with prefix {prefix}", flush=True)

    # ------------------------------------------------------------------ the report
    if phase_a:
        print_stream_table(f"Phase A: N streams over {args.games} games, {args.rate:g} move/s per game, "
                           f"{args.seconds:g} s windows", phase_a)
        print_stream_details(phase_a)
    if phase_b:
        print(f"\nPhase B: accepted moves/s on {args.drivers} unwatched games ({args.drivers} threads, "
              f"{args.b_seconds:g} s windows)")
        print(f"{'run':>3} {'streams':>8} {'idle':>7} {'moves/s':>8} {'moves':>7} {'srv cpu':>7} {'other':>6}  errors")
        for i, (cond, n, mps, moves, srv, other, errs) in enumerate(phase_b, 1):
            print(f"{i:>3} {cond:>8} {n:>7} {mps:>8.0f} {moves:>7} {100 * srv:>6.0f}% {100 * other:>5.0f}%  "
                  + (", ".join(f"{k} x{v}" for k, v in errs.items()) or "-"))
        none = [r[2] for r in phase_b if r[0] == "none"]
        idle_r = [r[2] for r in phase_b if r[0] == "idle"]
        if none and idle_r:
            m0, m1 = statistics.median(none), statistics.median(idle_r)
            print(f"median: none {m0:.0f} moves/s, with {phase_b[1][1]} idle streams {m1:.0f} moves/s; "
                  f"ratio idle/none {m1 / m0:.2f}")
    if verify_info:
        print(f"\nPhase C: /verify of a finished game of {verify_info[2]} events (built in {verify_info[3]:.1f} s); "
              f"alone: {', '.join(f'{d:.2f} s' for d in verify_alone)}")
    if phase_c:
        print_stream_table(f"{args.verify_streams} streams over {args.verify_games} games, {args.rate:g} move/s per game, "
                           f"{args.c_seconds:g} s windows", phase_c)
        print_stream_details(phase_c)
    if phase_a or phase_c:
        legend()
    print(f"\ntrouble in the gunicorn and worker logs ({sum(problems.values())} occurrences; logs in {stack.logdir}):"
          + ("" if problems else " none"))
    for what, n in problems.most_common(20):
        print(f"  {n:>6} x {what}")


if __name__ == "__main__":
    main()
