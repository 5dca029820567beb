"""Capacity from measurement (issue 15): what a move, a read, a bot move and an open stream cost,
on a single Redis and on a local 3-primary Redis Cluster, with the same workload, in one run.
Prints figures; never fails on timing. docs/capacity.md turns them into a capacity model.

    .venv/bin/python -m bench.scale                       # default run: 3-4 minutes on 2 idle cores
    .venv/bin/python -m bench.scale --seconds 60 --bot-seconds 60 --streams 2000 --tables 16
    .venv/bin/python -m bench.scale --only single         # or --only cluster
    .venv/bin/python -m bench.scale --redis-url redis://127.0.0.1:6379/8   # a given Redis as the single one

The single Redis is, by default, a private redis-server on a free loopback port, started from the
same binary as the cluster's primaries (service/embedded_cluster.redis_server_binary): INFO
commandstats and INFO cpu are server-wide, and a shared Redis (the machine's, where other test runs
write) would charge their commands to meow's moves. ``--redis-url`` measures a given Redis instead
(its db; figures then include whatever else it serves). The cluster is
service/embedded_cluster.LocalCluster (3 primaries; ``--primaries``); RQ's queues are on the single
Redis (MEOW_QUEUE_URL, db 1 of the private one), and its CPU is counted with the cluster's.

Per deployment it starts gunicorn as `make run` serves the API (service/gunicorn_conf.py: gevent
workers; ``--api-workers``, default 2) and, for the bot windows only, one `meow worker` (fast and
search lanes, with the dispatcher), rate limits off, PROMETHEUS_MULTIPROC_DIR set (as the launcher
does). Any game of the registry is driven through its views' ``legal_actions`` (``--variant``,
default prsi; options the variant lacks are dropped). Windows, in order:

1. idle: every process's and Redis' CPU over 3 s with nothing happening; subtracted from the
   windows below as a rate (the cluster bus, the hubs' waits, the dispatcher's polls);
2. set-up: ``--tables`` human-only tables created (create, every seat taken, start);
3. reads: ``--reads`` GETs of a seat's view, round robin over the tables;
4. moves: for ``--seconds``, one thread per table plays every seat through HTTP, a random legal
   action of the seat whose turn it is (no worker runs: no bot, scoring or timer work is counted;
   a table whose round ends is replaced by a fresh one). The next seat's legal actions come from a
   GET of its view, so the window's CPU less its reads and set-ups (at the costs of windows 2
   and 3) is the cost of the accepted moves; the gross figure is printed too;
5. streams: ``--streams`` spectator SSE streams opened over the tables (bench/streams.py's asyncio
   client, from 127.0.0.2-5), RSS of the gunicorn workers and Redis used_memory before and after,
   and the open-stream lease keys (MEMORY USAGE);
6. bots, per strength (``--strengths``, default easy,medium): ``--bot-tables`` tables of one
   scripted human who acts at once (long-polls the events otherwise) and ``--bots`` bots, zero bot
   delay, for ``--bot-seconds``; the worker's CPU (utime+stime from /proc) per bot move, counted by
   the workers' own ``meow_followups_total{kind="bot",outcome="moved"}``. The worker's CPU includes
   the dispatcher (its idle polling too; the figure less the idle rate is printed beside it) and
   the rounds' scoring and deals (amortised over the bot moves). A hard bot's
   CPU per move is its search budget by design (MEOW_MAX_BOT_BUDGET_MS), so it is not measured.

Redis CPU is reported two ways, summed over every node (and the queue Redis): INFO cpu
(used_cpu_user + used_cpu_sys: the event loop, networking and commands) and INFO commandstats
(command execution only). commandstats counts a command a Lua script calls both under its own
name and inside the EVALSHA's time, so the sum over all commands is an upper bound and the sum
without EVAL/EVALSHA a lower bound; both are printed.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: the project's packages import from the checkout

from bench.api import children_of, proc_cpu_s  # noqa: E402
from bench.streams import ClientPool, raise_nofile, rss_kb  # noqa: E402
from tools.stack import free_port, start_api, wait_ready  # noqa: E402

HOST = "127.0.0.1"
TIMEOUT = 30
SCRIPT_COMMANDS = ("cmdstat_eval", "cmdstat_evalsha", "cmdstat_eval_ro", "cmdstat_evalsha_ro",
                   "cmdstat_fcall", "cmdstat_fcall_ro")
# No grace, no intermission, no turn timer: a table moves only when the bench (or a bot) moves it.
BASE_OPTIONS = {"announce_grace_ms": 0, "round_intermission_s": 0, "turn_timeout_s": None}
BOT_MOVED = re.compile(r'^meow_followups_total\{(?=[^}]*kind="bot")(?=[^}]*outcome="moved")[^}]*\}\s+(\S+)', re.MULTILINE)


# ====================================================================== Redis servers
class RedisServers:
    """The Redis servers of one deployment: the data nodes (one Redis or a cluster's primaries) and
    RQ's queue Redis, each counted once. Samples their CPU, commandstats and data memory."""

    def __init__(self, data: list[tuple[str, int, int]], queue: tuple[str, int, int] | None) -> None:
        import redis

        self.data = [redis.Redis(host=h, port=p, db=db) for h, p, db in data]
        self.others = []
        if queue is not None and (queue[0], queue[1]) not in {(h, p) for h, p, _ in data}:
            self.others.append(redis.Redis(host=queue[0], port=queue[1], db=queue[2]))

    def all(self) -> list[Any]:
        return [*self.data, *self.others]

    def version(self) -> str:
        return str(self.data[0].info("server").get("redis_version", "?"))

    def sample(self) -> tuple[float, float, float, float, int, int]:
        """(used_cpu s, of it the queue Redis', commandstats usec all, usec without scripts, data
        used_memory bytes, data connected_clients)."""
        cpu = queue = usec_all = usec_plain = 0.0
        for c in self.all():
            info = c.info("cpu")
            cpu += float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
            if any(c is o for o in self.others):
                queue += float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
            for name, stat in c.info("commandstats").items():
                usec_all += float(stat["usec"])
                if name not in SCRIPT_COMMANDS:
                    usec_plain += float(stat["usec"])
        mem = sum(int(c.info("memory")["used_memory"]) for c in self.data)
        clients = sum(int(c.info("clients")["connected_clients"]) for c in self.data)
        return cpu, queue, usec_all, usec_plain, mem, clients

    def keys(self, pattern: str) -> list[tuple[Any, bytes]]:
        return [(c, k) for c in self.data for k in c.scan_iter(match=pattern, count=1000)]

    def delete(self, pattern: str) -> int:
        n = 0
        for c in self.all():
            for k in c.scan_iter(match=pattern, count=1000):
                n += c.delete(k)  # one key at a time: a cluster node refuses a multi-slot DEL
        return n

    def close(self) -> None:
        for c in self.all():
            c.close()


class PrivateRedis:
    """A plain redis-server on a free loopback port, from the cluster's binary."""

    def __init__(self) -> None:
        from service.embedded_cluster import redis_server_binary

        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="bench-scale-redis-")
        self.proc = subprocess.Popen([redis_server_binary(), "--port", str(self.port), "--bind", HOST,
                                      "--dir", self.dir, "--save", "", "--appendonly", "no",
                                      "--maxmemory-policy", "noeviction", "--daemonize", "no",
                                      "--logfile", os.path.join(self.dir, "redis.log")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis

        deadline = time.monotonic() + 20
        while True:
            try:
                redis.Redis(host=HOST, port=self.port).ping()
                return
            except redis.exceptions.ConnectionError as exc:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not come up (log in {self.dir})") from exc
                time.sleep(0.05)

    def url(self, db: int) -> str:
        return f"redis://{HOST}:{self.port}/{db}"

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


def host_port_db(url: str) -> tuple[str, int, int]:
    parts = urlsplit(url)
    return parts.hostname or HOST, parts.port or 6379, int((parts.path or "/0").strip("/") or 0)


def with_db(url: str, db: int) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, parts.fragment))


# ====================================================================== the deployment
@dataclass
class Sample:
    """Cumulative counters at one instant."""

    t: float
    api: float  # CPU s of gunicorn (master and workers)
    worker: float  # CPU s of the `meow worker` processes
    redis: float  # used_cpu_user+sys s, every Redis
    queue: float  # of it, the queue Redis' (when it is not a data node)
    usec_all: float  # commandstats usec, every command (script bodies counted twice)
    usec_plain: float  # commandstats usec without EVAL/EVALSHA (script overhead not at all)
    mem: int  # data nodes' used_memory
    rss_kb: int  # gunicorn workers' RSS
    clients: int  # data nodes' connected clients

    def __sub__(self, other: Sample) -> Sample:
        return Sample(*(getattr(self, f.name) - getattr(other, f.name) for f in fields(self)))


class Deployment:
    """gunicorn (+ a worker on demand) on one Redis layout, logs in a temp directory."""

    def __init__(self, name: str, redis_url: str, queue_url: str, servers: RedisServers, api_workers: int) -> None:
        self.name, self.servers = name, servers
        self.prefix = f"bench-scale-{secrets.token_hex(4)}"
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.logdir = tempfile.mkdtemp(prefix="bench-scale-")
        metrics_dir = os.path.join(self.logdir, "metrics")
        os.makedirs(metrics_dir)
        self.env = dict(os.environ, REDIS_URL=redis_url, MEOW_QUEUE_URL=queue_url, MEOW_KEY_PREFIX=self.prefix,
                        MEOW_QUEUE=self.prefix, PYTHONPATH=str(ROOT), MEOW_RATE_LIMITS="off",
                        MEOW_MAX_STREAMS_PER_ADDRESS="1000000", MEOW_MAX_STREAMS_PER_TOKEN="1000000",
                        PROMETHEUS_MULTIPROC_DIR=metrics_dir,
                        GUNICORN_CMD_ARGS=f"--error-logfile {os.path.join(self.logdir, 'gunicorn.log')} --capture-output")
        self.web = start_api(self.env, self.port, workers=api_workers)
        self.workers: list[subprocess.Popen] = []
        try:
            wait_ready(self.base, [self.web])
        except BaseException:
            self.stop()
            raise
        deadline = time.monotonic() + 10
        while len(self.api_workers()) < api_workers and time.monotonic() < deadline:
            time.sleep(0.1)

    def api_workers(self) -> list[int]:
        return sorted(children_of(self.web.pid))

    def start_worker(self) -> None:
        with open(os.path.join(self.logdir, "worker.log"), "ab") as log:
            self.workers.append(subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env=self.env,
                                                 cwd=ROOT, stdout=log, stderr=subprocess.STDOUT))
        time.sleep(4)  # imports, connections, the dispatcher's threads
        if self.workers[-1].poll() is not None:
            raise RuntimeError(f"meow worker exited: see {self.logdir}/worker.log")

    def sample(self) -> Sample:
        api = [self.web.pid, *self.api_workers()]
        wpids = [p for w in self.workers for p in (w.pid, *children_of(w.pid))]
        cpu, queue, usec_all, usec_plain, mem, clients = self.servers.sample()
        return Sample(time.perf_counter(), proc_cpu_s(api), proc_cpu_s(wpids), cpu, queue, usec_all, usec_plain,
                      mem, rss_kb(self.api_workers()), clients)

    def bot_moves(self) -> float:
        text = requests.get(f"{self.base}/metrics", timeout=TIMEOUT).text
        return sum(float(v) for v in BOT_MOVED.findall(text))

    def log_problems(self) -> Counter:
        """The logs' tracebacks and warnings, by their last line (numbers and ids folded)."""
        out: Counter = Counter()
        for name in ("gunicorn.log", "worker.log"):
            try:
                lines = Path(self.logdir, name).read_text(errors="replace").splitlines()
            except OSError:
                continue
            for _i, line in enumerate(lines):
                if line.startswith(("redis.exceptions.", "Traceback")) or " failed" in line or "unavailable" in line:
                    if line.startswith("Traceback"):
                        continue
                    out[f"{name}: {re.sub(r'[0-9a-f]{6,}|[0-9]+', '#', line.strip())[:110]}"] += 1
        return out

    def stop(self) -> None:
        for p in (self.web, *self.workers):
            if p.poll() is None:
                p.terminate()
        for p in (self.web, *self.workers):
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
        self.servers.delete(f"*{self.prefix}*")
        shutil.rmtree(self.logdir, ignore_errors=True)


# ====================================================================== the players
class SetupFailed(Exception):
    pass


@dataclass
class Counts:
    moves: int = 0
    events: int = 0  # appended by the accepted moves
    reads: int = 0
    setups: int = 0
    errors: Counter = field(default_factory=Counter)

    def add(self, other: Counts) -> None:
        self.moves += other.moves
        self.events += other.events
        self.reads += other.reads
        self.setups += other.setups
        self.errors.update(other.errors)


def session() -> requests.Session:
    s = requests.Session()
    s.trust_env = False
    return s


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Variant:
    """What the bench needs of a registry variant: its name, seat counts, the options it takes."""

    def __init__(self, base: str, name: str) -> None:
        found = [v for v in requests.get(f"{base}/v1/variants", timeout=TIMEOUT).json()["variants"] if v["name"] == name]
        if not found:
            raise SystemExit(f"unknown variant {name!r}")
        v = found[0]
        self.name, self.min, self.max = name, int(v["min_players"]), int(v["max_players"])
        self.strengths = list(v.get("bot_strengths") or [])
        self.option_names = {o["name"] for o in v["options"]}

    def options(self, **more: Any) -> dict[str, Any]:
        return {k: val for k, val in {**BASE_OPTIONS, **more}.items() if k in self.option_names}


class Table:
    """A started table; ``tokens[i]`` is seat i's token (None for a bot seat)."""

    def __init__(self, base: str, http: requests.Session, variant: Variant, humans: int, bots: list[str],
                 counts: Counts, options: dict[str, Any]) -> None:
        self.base, self.http, self.counts = base, http, counts
        r = http.post(f"{base}/v1/games", json={"variant": variant.name, "options": options}, timeout=TIMEOUT)
        if r.status_code != 201:
            raise SetupFailed(f"POST games {r.status_code}: {r.text[:200]}")
        self.gid, owner = r.json()["id"], r.json()["owner_token"]
        self.tokens: list[str | None] = []
        for i in range(humans):
            r = http.post(f"{base}/v1/games/{self.gid}/seats", json={"name": f"p{i}"},
                          headers=auth(owner) if i == 0 else {}, timeout=TIMEOUT)
            if r.status_code != 201:
                raise SetupFailed(f"POST seats {r.status_code}: {r.text[:200]}")
            self.tokens.append(r.json()["token"])
        for strength in bots:
            r = http.post(f"{base}/v1/games/{self.gid}/seats", json={"bot": {"strength": strength}},
                          headers=auth(owner), timeout=TIMEOUT)
            if r.status_code != 201:
                raise SetupFailed(f"POST bot seat {r.status_code}: {r.text[:200]}")
            self.tokens.append(None)
        r = http.post(f"{base}/v1/games/{self.gid}/start", headers=auth(owner), timeout=TIMEOUT)
        if r.status_code != 200:
            raise SetupFailed(f"POST start {r.status_code}: {r.text[:200]}")
        counts.setups += 1
        self.view: dict[str, Any] = r.json().get("game") or {}
        self.ended = False

    def look(self, seat: int) -> dict[str, Any] | None:
        r = self.http.get(f"{self.base}/v1/games/{self.gid}", headers=auth(self.tokens[seat]), timeout=TIMEOUT)
        self.counts.reads += 1
        if r.status_code != 200:
            self.counts.errors[f"GET view {r.status_code}"] += 1
            return None
        self.view = r.json()
        return self.view

    def play(self, seat: int, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any] | None:
        r = self.http.post(f"{self.base}/v1/games/{self.gid}/actions", json=rng.choice(legal),
                           headers=auth(self.tokens[seat]), timeout=TIMEOUT)
        if r.status_code != 200:
            self.counts.errors[f"POST actions {r.status_code}"] += 1
            return None
        self.counts.moves += 1
        body = r.json()
        self.counts.events += len(body.get("events") or [])
        self.view = body["game"]
        return self.view

    @staticmethod
    def over(view: dict[str, Any]) -> bool:
        return view.get("status") == "finished" or view.get("phase") in ("scoring", "intermission")


def human_step(table: Table, rng: random.Random) -> bool:
    """One accepted move by whichever human seat may act (its view's legal actions). False when the
    round is over or nobody can act (the caller replaces the table)."""
    view = table.view
    if Table.over(view):
        return False
    turn = (view.get("turn") or {}).get("seat")
    you = (view.get("you") or {}).get("seat")
    order = [turn] if turn is not None else list(range(len(table.tokens)))
    for seat in order:
        legal = (view.get("you") or {}).get("legal_actions") if seat == you else None
        if legal is None:
            seen = table.look(seat)
            if seen is None or Table.over(seen):
                return False
            legal = seen["you"].get("legal_actions")
        if legal:
            return table.play(seat, legal, rng) is not None
    return False


def run_threads(n: int, body: Callable[[int], Counts]) -> Counts:
    outs: list[Counts] = [Counts() for _ in range(n)]

    def run(i: int) -> None:
        try:
            outs[i] = body(i)
        except Exception as exc:  # noqa: BLE001 - a figure, not a crash
            outs[i].errors[f"client {type(exc).__name__}: {str(exc)[:120]}"] += 1

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    total = Counts()
    for c in outs:
        total.add(c)
    return total


# ====================================================================== the windows
@dataclass
class Window:
    delta: Sample  # idle rates subtracted
    raw: Sample
    counts: Counts
    calls: Counter  # commandstats calls by command, every Redis


def command_calls(servers: RedisServers, queue_only: bool = False) -> Counter:
    out: Counter = Counter()
    for c in (servers.others if queue_only else servers.all()):
        for name, stat in c.info("commandstats").items():
            out[name.removeprefix("cmdstat_")] += int(stat["calls"])
    return out


def per_unit(calls: Counter, n: float, top: int = 8) -> str:
    return ", ".join(f"{k} {v / max(1.0, n):.1f}" for k, v in calls.most_common(top))


def measure(dep: Deployment, idle: Sample | None, fn: Callable[[], Counts]) -> Window:
    """Counters around ``fn``; the idle rates (per second) subtracted when given, floored at 0."""
    calls0 = command_calls(dep.servers)
    before = dep.sample()
    counts = fn()
    d = raw = dep.sample() - before
    calls = command_calls(dep.servers) - calls0
    if idle is not None:
        k = d.t / idle.t
        d = Sample(d.t, max(0.0, d.api - idle.api * k), max(0.0, d.worker - idle.worker * k),
                   max(0.0, d.redis - idle.redis * k), max(0.0, d.queue - idle.queue * k),
                   max(0.0, d.usec_all - idle.usec_all * k), max(0.0, d.usec_plain - idle.usec_plain * k),
                   d.mem, d.rss_kb, d.clients)
    return Window(d, raw, counts, calls)


def idle_rates(dep: Deployment, seconds: float = 3.0) -> Sample:
    before = dep.sample()
    time.sleep(seconds)
    return dep.sample() - before


@dataclass
class Figures:
    """Per-unit costs of one deployment (None: not measured)."""

    name: str
    redis_version: str = "?"
    values: dict[str, float | None] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def run_deployment(dep: Deployment, args: argparse.Namespace) -> Figures:
    fig = Figures(dep.name, dep.servers.version())
    v = Variant(dep.base, args.variant)
    humans = max(2, v.min)
    options = v.options(penalty_limit=1000)
    warm_up(dep, v, humans, options, args)
    idle = idle_rates(dep)
    fig.notes.append(f"idle: API {idle.api / idle.t * 1000:.1f} ms/s, Redis {idle.redis / idle.t * 1000:.1f} ms/s "
                     "(subtracted)")
    seed = args.seed

    # 2. set-up
    tables: list[Table | None] = [None] * args.tables
    per_thread = max(1, args.setups // args.tables)

    def setup(i: int) -> Counts:
        c, http = Counts(), session()
        for _ in range(per_thread):
            tables[i] = Table(dep.base, http, v, humans, [], c, options)
        return c

    w_setup = measure(dep, idle, lambda: run_threads(args.tables, setup))
    if any(t is None for t in tables):
        raise RuntimeError(f"set-up failed: {dict(w_setup.counts.errors)}")
    ready = [t for t in tables if t is not None]

    # 3. reads
    def reads(i: int) -> Counts:
        c, http = Counts(), session()
        t = ready[i]
        t.http, t.counts = http, c
        for _ in range(args.reads // args.tables):
            t.look(0)
        return c

    w_read = measure(dep, idle, lambda: run_threads(args.tables, reads))

    # 4. moves
    def play(seconds: float) -> Counts:
        def moves(i: int) -> Counts:
            c, http, rng = Counts(), session(), random.Random(seed * 1000 + i)
            t = ready[i]
            t.http, t.counts = http, c
            end = time.perf_counter() + seconds
            while time.perf_counter() < end:
                if not human_step(t, rng):
                    t = ready[i] = Table(dep.base, http, v, humans, [], c, options)
            return c

        return run_threads(args.tables, moves)

    w_move = measure(dep, idle, lambda: play(args.seconds))
    per = {}
    for key, w, n in (("setup", w_setup, w_setup.counts.setups), ("read", w_read, w_read.counts.reads)):
        per[key] = {k: getattr(w.delta, k) / max(1, n) for k in ("api", "redis", "usec_all", "usec_plain")}
    m = w_move.counts
    net = {k: (getattr(w_move.delta, k) - m.reads * per["read"][k] - m.setups * per["setup"][k]) / max(1, m.moves)
           for k in ("api", "redis", "usec_all", "usec_plain")}
    gross = {k: getattr(w_move.delta, k) / max(1, m.moves) for k in ("api", "redis")}
    fig.values.update({
        "moves/s (this machine, all sharing it)": m.moves / w_move.delta.t,
        "API CPU per accepted move, ms": net["api"] * 1000,
        "API CPU per move with its reads and set-ups, ms": gross["api"] * 1000,
        "API CPU per view GET, ms": per["read"]["api"] * 1000,
        "API CPU per table set-up (create, seats, start), ms": per["setup"]["api"] * 1000,
        "Redis CPU per accepted move (used_cpu), ms": net["redis"] * 1000,
        "Redis commands per move, us (lower bound)": net["usec_plain"],
        "Redis commands per move, us (upper bound)": net["usec_all"],
        "Redis CPU per view GET, ms": per["read"]["redis"] * 1000,
        "Redis commands per view GET, us (upper)": per["read"]["usec_all"],
        "Redis CPU per table set-up, ms": per["setup"]["redis"] * 1000,
        "events per accepted move": m.events / max(1, m.moves),
        "Redis memory per event appended, B": w_move.delta.mem / max(1, m.events),
        "Redis memory per table set-up, B": w_setup.delta.mem / max(1, w_setup.counts.setups),
    })
    fig.notes.append(f"Redis calls per move window's move (its reads and set-ups in): {per_unit(w_move.calls, m.moves)}")
    fig.notes.append(f"Redis calls per view GET: {per_unit(w_read.calls, w_read.counts.reads)}")
    fig.notes.append(f"moves window: {m.moves} moves, {m.reads} reads, {m.setups} set-ups in {w_move.delta.t:.1f} s; "
                     f"reads window {w_read.counts.reads}; set-ups window {w_setup.counts.setups}"
                     + (f"; errors {dict(m.errors + w_read.counts.errors + w_setup.counts.errors)}"
                        if (m.errors or w_read.counts.errors or w_setup.counts.errors) else ""))

    # 5. streams
    if args.streams:
        fig.values.update(stream_window(dep, ready, args, play, idle, per, net))

    # 6. bots
    strengths = [s for s in args.strengths.split(",") if s and s in v.strengths]
    if strengths:
        dep.start_worker()
        idle_w = idle_rates(dep, 5.0)
        fig.notes.append(f"idle worker (dispatcher): {idle_w.worker / idle_w.t * 1000:.1f} ms/s, "
                         f"Redis with it {idle_w.redis / idle_w.t * 1000:.1f} ms/s (subtracted)")
        seats = min(v.max, max(v.min, 1 + args.bots))
        for strength in strengths:
            fig.values.update(bot_window(dep, v, strength, seats, idle_w, per, net, args, fig.notes))
    return fig


def warm_up(dep: Deployment, v: Variant, humans: int, options: dict[str, Any], args: argparse.Namespace) -> None:
    """Every API process through imports, caches and connections before anything is measured."""
    def play(i: int) -> Counts:
        c, http, rng = Counts(), session(), random.Random(i)
        t = Table(dep.base, http, v, humans, [], c, options)
        for _ in range(30):
            if not human_step(t, rng):
                t = Table(dep.base, http, v, humans, [], c, options)
        return c

    run_threads(args.tables, play)
    time.sleep(1)


def stream_window(dep: Deployment, tables: list[Table], args: argparse.Namespace, play: Callable[[float], Counts],
                  idle: Sample, per: dict, net: dict) -> dict[str, float]:
    """Open the streams (memory), then play the tables for ``--stream-seconds`` with them open:
    the API's CPU beyond the moves' and reads' own, per frame the streams received."""
    raise_nofile()
    http = session()
    versions = {}
    for t in tables:
        t.http = http
        view = t.look(0) or {}
        versions[t.gid] = int(view.get("version") or 0)
    pool = ClientPool(1, dep.port, [f"127.0.0.{i}" for i in range(2, 6)])
    try:
        time.sleep(1)
        before = dep.sample()
        opened = pool.open(list(versions), versions, args.streams, batch=args.batch, retries=3)
        time.sleep(3)  # let the workers settle (greenlets, buffers, the hubs' reads)
        after = dep.sample()
        leases = dep.servers.keys(f"*{dep.prefix}:lease:*")
        lease_bytes = sum(int(c.memory_usage(k) or 0) for c, k in leases)
        pool.ask_all("mark")
        w = measure(dep, idle, lambda: play(args.stream_seconds))
        got = pool.ask_all("collect")
    finally:
        pool.stop()
    n = max(1, opened.opened)
    frames = sum(g["frames"] for g in got)
    m = w.counts
    own = {k: m.moves * net[k] + m.reads * per["read"][k] + m.setups * per["setup"][k] for k in ("api", "redis")}
    return {"streams opened": opened.opened,
            "frames delivered while moving": frames,
            "API CPU per frame delivered, ms": max(0.0, w.delta.api - own["api"]) / max(1, frames) * 1000,
            "Redis CPU per frame delivered, ms": max(0.0, w.delta.redis - own["redis"]) / max(1, frames) * 1000,
            "API RSS per open stream, KB": (after.rss_kb - before.rss_kb) / n,
            "Redis used_memory per open stream, B": (after.mem - before.mem) / n,
            "Redis connections the opening added": after.clients - before.clients,
            "Redis lease keys' memory per stream, B": lease_bytes / n}


def bot_window(dep: Deployment, v: Variant, strength: str, seats: int, idle: Sample, per: dict, net: dict,
               args: argparse.Namespace, notes: list[str]) -> dict[str, float | None]:
    options = v.options(bot_delay_ms={strength: [0, 0]}, penalty_limit=1000)
    bots0 = dep.bot_moves()
    queue0 = command_calls(dep.servers, queue_only=True)

    def play(i: int) -> Counts:
        c, http, rng = Counts(), session(), random.Random(args.seed * 7919 + i)
        t = Table(dep.base, http, v, 1, [strength] * (seats - 1), c, options)
        end = time.perf_counter() + args.bot_seconds
        while time.perf_counter() < end:
            view = t.look(0)
            if view is None:
                continue
            if view.get("status") == "finished":
                t = Table(dep.base, http, v, 1, [strength] * (seats - 1), c, options)
                continue
            legal = view["you"].get("legal_actions")
            if legal:
                t.play(0, legal, rng)
            else:  # a bot's turn, or the round being scored: wait for the next event
                http.get(f"{dep.base}/v1/games/{t.gid}/events", params={"after": view["version"], "wait": 5},
                         timeout=TIMEOUT)
        return c

    w = measure(dep, idle, lambda: run_threads(args.bot_tables, play))
    bots = dep.bot_moves() - bots0
    c = w.counts
    notes.append(f"{strength}: Redis calls per bot move (the human's in): {per_unit(w.calls, bots)}")
    if dep.servers.others:
        queue = command_calls(dep.servers, queue_only=True) - queue0
        notes.append(f"{strength}: of them on the queue Redis, {sum(queue.values()) / max(1.0, bots):.1f}: "
                     f"{per_unit(queue, bots)}")
    human_redis = c.moves * net["redis"] + c.reads * per["read"]["redis"] + c.setups * per["setup"]["redis"]
    n = max(1.0, bots)
    return {f"{strength} bot moves": bots,
            f"{strength}: human moves beside them": c.moves,
            f"worker CPU per {strength} bot move, ms": w.raw.worker / n * 1000,
            f"  less the idle dispatcher's polls, {strength}, ms": w.delta.worker / n * 1000,
            f"Redis CPU per {strength} bot move (net of the human's), ms": max(0.0, w.delta.redis - human_redis) / n * 1000,
            f"  of it the queue Redis' (RQ), {strength}, ms": (w.delta.queue / n * 1000) if dep.servers.others else None}


# ====================================================================== the capacity model
@dataclass
class Pace:
    """What a table does per second, on average over the fleet (docs/capacity.md, assumptions)."""

    moves_per_min: float = 20.0  # all seats together
    bot_share: float = 0.5  # of the moves
    reads_per_move: float = 1.0  # view GETs (a client refreshes its view on its own turn)
    streams_per_table: float = 2.5  # open SSE streams: the humans' and the spectators'
    budget: float = 0.7  # of a core a process (or a Redis primary) is planned to use


def capacity(fig: Figures, pace: Pace, tables: int) -> dict[str, float]:
    """Cores, processes and memory ``tables`` concurrent tables need at ``pace``, from one
    deployment's figures (missing figures count as 0)."""
    f = {k: (val or 0.0) for k, val in fig.values.items()}
    moves = tables * pace.moves_per_min / 60
    human, bots = moves * (1 - pace.bot_share), moves * pace.bot_share
    reads = moves * pace.reads_per_move
    frames = moves * f.get("events per accepted move", 1.0) * pace.streams_per_table
    strengths = [k for k in f if k.startswith("worker CPU per ")]
    worker_ms = statistics.mean(f[k] for k in strengths) if strengths else 0.0
    bot_redis = [f[k] for k in f if k.startswith("Redis CPU per ") and "bot move" in k]
    queue = [f[k] for k in f if k.startswith("  of it the queue Redis'")]
    api_s = (human * f["API CPU per accepted move, ms"] + reads * f["API CPU per view GET, ms"]
             + frames * f.get("API CPU per frame delivered, ms", 0.0)) / 1000
    redis_s = (human * f["Redis CPU per accepted move (used_cpu), ms"] + reads * f["Redis CPU per view GET, ms"]
               + bots * (statistics.mean(bot_redis) if bot_redis else 0.0)
               + frames * f.get("Redis CPU per frame delivered, ms", 0.0)) / 1000
    queue_s = bots * (statistics.mean(queue) if queue else 0.0) / 1000
    streams = tables * pace.streams_per_table
    return {"moves/s": moves, "bot moves/s": bots, "frames/s": frames,
            "API cores (gevent processes)": api_s / pace.budget,
            "worker cores (processes)": bots * worker_ms / 1000 / pace.budget,
            "Redis cores for game data (primaries)": (redis_s - queue_s) / pace.budget,
            "  of which the queue Redis (RQ: one instance)": queue_s / pace.budget,
            "stream memory in the API, GB": streams * f.get("API RSS per open stream, KB", 0.0) / 1e6,
            "stream leases in Redis, MB": streams * f.get("Redis lease keys' memory per stream, B", 0.0) / 1e6}


def print_capacity(figs: list[Figures], pace: Pace) -> None:
    print()
    print(f"capacity model: {pace.moves_per_min:g} moves/min per table, {pace.bot_share:.0%} by bots, "
          f"{pace.reads_per_move:g} view GET per move, {pace.streams_per_table:g} streams per table, "
          f"{pace.budget:.0%} of a core per process or primary")
    rows = {(f.name, n): capacity(f, pace, n) for f in figs for n in (10_000, 100_000)}
    keys = list(next(iter(rows.values()))) if rows else []
    width = max((len(k) for k in keys), default=10) + 2
    print("tables".ljust(width) + "".join(f"{name[:14]} {n // 1000}k".rjust(24) for name, n in rows))
    for k in keys:
        print(k.ljust(width) + "".join(f"{r[k]:,.1f}".rjust(24) for r in rows.values()))


# ====================================================================== report
def machine() -> str:
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{os.cpu_count()} cores ({model}), Linux {platform.release()}, Python {platform.python_version()}, "
            f"load average {os.getloadavg()[0]:.2f} at the end")


def report(figs: list[Figures], args: argparse.Namespace, started: float) -> None:
    print()
    print(f"bench/scale.py — {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {machine()}")
    print(f"variant {args.variant}, {args.api_workers} gevent API processes, {args.tables} tables, "
          f"{time.monotonic() - started:.0f} s in all")
    for f in figs:
        print(f"  {f.name}: Redis {f.redis_version}")
    keys = list(dict.fromkeys(k for f in figs for k in f.values))
    width = max(len(k) for k in keys) + 2
    print()
    print("figure".ljust(width) + "".join(f.name[:22].rjust(24) for f in figs))
    for k in keys:
        cells = []
        for f in figs:
            val = f.values.get(k)
            cells.append(("-" if val is None else f"{val:,.3f}" if abs(val) < 100 else f"{val:,.0f}").rjust(24))
        print(k.ljust(width) + "".join(cells))
    print()
    for f in figs:
        for note in f.notes:
            print(f"  {f.name}: {note}")
    print("CPU figures are utime+stime (processes, /proc) and used_cpu_user+sys (Redis), idle rates subtracted;\n"
          "'per accepted move' excludes the GETs and set-ups of the window at their own measured cost.")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="prsi")
    ap.add_argument("--tables", type=int, default=8, help="human-only tables (one client thread each)")
    ap.add_argument("--setups", type=int, default=48, help="tables created in the set-up window")
    ap.add_argument("--reads", type=int, default=1600)
    ap.add_argument("--seconds", type=float, default=15, help="the moves window")
    ap.add_argument("--streams", type=int, default=500)
    ap.add_argument("--stream-seconds", type=float, default=8, help="moves with the streams open")
    ap.add_argument("--batch", type=int, default=50, help="streams opened at once")
    ap.add_argument("--bot-tables", type=int, default=6)
    ap.add_argument("--bots", type=int, default=2, help="bots per bot table (beside one human)")
    ap.add_argument("--bot-seconds", type=float, default=15, help="per strength")
    ap.add_argument("--strengths", default="easy,medium")
    ap.add_argument("--api-workers", type=int, default=2)
    ap.add_argument("--primaries", type=int, default=3)
    ap.add_argument("--only", choices=("single", "cluster"))
    ap.add_argument("--redis-url", help="measure this Redis as the single one (default: a private redis-server)")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--pace", type=float, default=Pace.moves_per_min, help="model: moves per minute per table")
    ap.add_argument("--bot-share", type=float, default=Pace.bot_share, help="model: share of bot moves")
    ap.add_argument("--reads-per-move", type=float, default=Pace.reads_per_move, help="model: view GETs per move")
    ap.add_argument("--streams-per-table", type=float, default=Pace.streams_per_table, help="model")
    args = ap.parse_args()
    started = time.monotonic()
    private = None if args.redis_url else PrivateRedis()
    single_url = args.redis_url or private.url(0)
    queue_url = with_db(single_url, 1) if private else single_url
    figs: list[Figures] = []
    try:
        if args.only != "cluster":
            servers = RedisServers([host_port_db(single_url)], host_port_db(single_url))
            print(f"single Redis at {single_url} ...", flush=True)
            dep = Deployment("single Redis", single_url, single_url, servers, args.api_workers)
            try:
                figs.append(run_deployment(dep, args))
                figs[-1].notes += [f"log: {k} x{n}" for k, n in dep.log_problems().most_common(8)]
            finally:
                dep.stop()
                servers.close()
        if args.only != "single":
            from service.embedded_cluster import LocalCluster

            cluster = LocalCluster.start(args.primaries)
            try:
                servers = RedisServers([(h, p, 0) for h, p in cluster.nodes], host_port_db(queue_url))
                print(f"cluster of {args.primaries} primaries at {cluster.url}, queue on {queue_url} ...", flush=True)
                dep = Deployment(f"cluster ({args.primaries} primaries)", cluster.url, queue_url, servers,
                                 args.api_workers)
                try:
                    figs.append(run_deployment(dep, args))
                    figs[-1].notes += [f"log: {k} x{n}" for k, n in dep.log_problems().most_common(8)]
                finally:
                    dep.stop()
                    servers.close()
            finally:
                cluster.stop()
    finally:
        if private is not None:
            private.stop()
    report(figs, args, started)
    print_capacity(figs, Pace(args.pace, args.bot_share, args.reads_per_move, args.streams_per_table))


if __name__ == "__main__":
    main()
