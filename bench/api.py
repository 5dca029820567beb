"""HTTP move throughput of meow against the ceiling of its architecture. Prints figures; never fails on time.

    .venv/bin/python bench/api.py [--seconds 15] [--clients 16] [--only meow|minimal]

It starts everything it measures: a Redis (REDIS_URL's DB 14 under a unique key prefix, or an
embedded redis-server), then gunicorn as `make run` starts it (service/gunicorn_conf.py: gevent
workers; ``--worker-class gthread`` for 8 threads each), 2 workers, serving first meow
(``service.api.app:create_app()``) and then ``bench/minimal_app.py`` (one Lua append + one
XRANGE per move). Each of ``--clients`` threads drives its own two-seat prsi game over its own
keep-alive ``requests.Session``: it plays a random legal action for whoever's turn it is and
starts a fresh game whenever a round ends (no worker process runs, so nobody scores it).
Only its own keys are deleted at the end; the embedded Redis and gunicorn are stopped.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import random
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import requests

ROOT = Path(__file__).resolve().parent.parent
OPTIONS = {"announce_grace_ms": 0, "round_intermission_s": 0, "bot_delay_ms": {"easy": [0, 0]}}
ROUND_OVER = ("scoring", "intermission")
# both apps as `make run` serves meow: service/gunicorn_conf.py (gevent workers), 2 processes
GUNICORN = ["--config", "python:service.gunicorn_conf", "--workers", "2"]
TIMEOUT = 30


# ---------------------------------------------------------------------- infrastructure
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def with_db(url: str, db: int) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, parts.fragment))


class RedisUnderTest:
    """REDIS_URL's DB 14 (or MEOW_BENCH_DB; keys under a unique prefix, deleted at the end) or an
    embedded redis-server."""

    def __init__(self) -> None:
        import redis

        self.uid = f"bench-{os.getpid()}-{secrets.token_hex(4)}"
        self.embedded = None
        given = os.environ.get("REDIS_URL")
        if given:
            db = int(os.environ.get("MEOW_BENCH_DB", "14"))
            self.url = with_db(given, db)
            self.where = f"REDIS_URL, db {db} ({self.url})"
        else:
            from service.embedded_redis import EmbeddedRedis

            self.embedded = EmbeddedRedis.start()
            self.url = self.embedded.url
            self.where = f"embedded redis-server on port {self.embedded.port}"
        self.client = redis.Redis.from_url(self.url)
        self.client.ping()

    def cpu_s(self) -> float:
        info = self.client.info("cpu")
        return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])

    def version(self) -> str:
        return str(self.client.info("server").get("redis_version", "?"))

    def cleanup(self) -> int:
        deleted = 0
        try:
            batch: list[bytes] = []
            for k in self.client.scan_iter(match=f"*{self.uid}*", count=1000):
                batch.append(k)
                if len(batch) >= 500:
                    deleted += self.client.delete(*batch)
                    batch.clear()
            if batch:
                deleted += self.client.delete(*batch)
        finally:
            self.client.close()
            if self.embedded is not None:
                self.embedded.stop()
                shutil.rmtree(self.embedded.data_dir, ignore_errors=True)
        return deleted


def proc_cpu_s(pids: list[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
        except (OSError, IndexError, ValueError):
            pass
    return total


def machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of all cores, from /proc/stat."""
    try:
        vals = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0, 0.0
    idle = vals[3] + (vals[4] if len(vals) > 4 else 0)
    return float(sum(vals) - idle), float(sum(vals))


def children_of(ppid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == ppid:
                    out.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                pass
    return out


class Gunicorn:
    """gunicorn with one app spec on a free 127.0.0.1 port; stderr kept in a temp file."""

    def __init__(self, spec: str, env: dict[str, str]) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        # open while the server runs: stop() closes it
        self.log = tempfile.NamedTemporaryFile(prefix="bench-gunicorn-", suffix=".log", delete=False)  # noqa: SIM115
        cmd = [sys.executable, "-m", "gunicorn", *GUNICORN, "--bind", f"127.0.0.1:{self.port}",
               "--chdir", str(ROOT), "--log-level", "warning", "--graceful-timeout", "5", spec]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **env}, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 30
        while True:
            try:
                if requests.get(self.base + "/healthz", timeout=1).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"gunicorn ({spec}) did not come up:\n{self.log_tail()}")
            time.sleep(0.1)

    def pids(self) -> list[int]:
        return [self.proc.pid, *children_of(self.proc.pid)]

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(Path(self.log.name).read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()

    def remove_log(self) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self.log.name)


# ---------------------------------------------------------------------- the client
@dataclass
class Stats:
    moves: int = 0
    move_lat: list[float] = field(default_factory=list)  # seconds, every action POST
    get_lat: list[float] = field(default_factory=list)  # seconds, every GET (actions / view)
    setups: int = 0
    setup_s: float = 0.0
    errors: Counter = field(default_factory=Counter)  # "POST actions 409", "GET actions exc:Timeout", ...
    samples: dict[str, str] = field(default_factory=dict)  # first body of each error kind
    rounds_over: Counter = field(default_factory=Counter)  # why a game was replaced

    def merge(self, other: Stats) -> None:
        self.moves += other.moves
        self.move_lat += other.move_lat
        self.get_lat += other.get_lat
        self.setups += other.setups
        self.setup_s += other.setup_s
        self.errors.update(other.errors)
        self.rounds_over.update(other.rounds_over)
        for k, v in other.samples.items():
            self.samples.setdefault(k, v)


class SetupFailed(Exception):
    pass


class Player:
    """One client thread's table: two human seats, the last view each seat got, whose turn it is."""

    def __init__(self, base: str, stats: Stats, rng: random.Random) -> None:
        self.base = base
        self.http = requests.Session()
        self.http.trust_env = False  # no per-request proxy/netrc lookups: less client CPU on a shared machine
        self.stats = stats
        self.rng = rng
        self.gid = ""
        self.tokens: list[str] = []
        self.views: dict[int, dict[str, Any]] = {}
        self.version = 0
        self.turn: int | None = None

    def _call(self, method: str, path: str, what: str, token: str | None = None, body: Any = None,
              lat: list[float] | None = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        t0 = time.perf_counter()
        try:
            r = self.http.request(method, self.base + path, json=body, headers=headers, timeout=TIMEOUT)
        except requests.RequestException as exc:
            if lat is not None:
                lat.append(time.perf_counter() - t0)
            self._error(f"{what} exc:{type(exc).__name__}", str(exc))
            return 0, None
        if lat is not None:
            lat.append(time.perf_counter() - t0)
        try:
            data = r.json()
        except ValueError:
            data = None
        if r.status_code >= 300:
            self._error(f"{what} {r.status_code}", r.text)
        return r.status_code, data

    def _error(self, kind: str, detail: str) -> None:
        self.stats.errors[kind] += 1
        self.stats.samples.setdefault(kind, detail[:300])

    def _see(self, game: dict[str, Any] | None) -> None:
        """Take in a view: the newest version wins; keep it as its seat's last view."""
        if not isinstance(game, dict):
            return
        version = int(game.get("version") or 0)
        if version >= self.version:
            self.version = version
            self.turn = (game.get("turn") or {}).get("seat")
        you = game.get("you")
        if isinstance(you, dict) and you.get("seat") is not None:
            self.views[int(you["seat"])] = game

    def new_game(self) -> None:
        t0 = time.perf_counter()
        try:
            st, created = self._call("POST", "/v1/games", "POST games", body={"variant": "prsi", "options": OPTIONS})
            if st != 201:
                raise SetupFailed
            gid, owner = created["id"], created["owner_token"]
            tokens = []
            for seat, token in enumerate((owner, None)):
                st, seated = self._call("POST", f"/v1/games/{gid}/seats", "POST seats", token, {"name": f"p{seat}"})
                if st != 201:
                    raise SetupFailed
                tokens.append(seated["token"])
            st, started = self._call("POST", f"/v1/games/{gid}/start", "POST start", owner)
            if st != 200:
                raise SetupFailed
            self.gid, self.tokens, self.views, self.version, self.turn = gid, tokens, {}, 0, None
            self._see(started.get("game"))
            self.stats.setups += 1
        finally:
            self.stats.setup_s += time.perf_counter() - t0

    def refresh(self) -> dict[str, Any] | None:
        st, game = self._call("GET", f"/v1/games/{self.gid}", "GET view", self.tokens[0], lat=self.stats.get_lat)
        if st != 200:
            return None
        self._see(game)
        return game

    def round_over(self, game: dict[str, Any]) -> str | None:
        if game.get("status") == "finished":
            return "finished"
        if game.get("phase") in ROUND_OVER:
            return str(game["phase"])
        return None

    def legal(self, seat: int) -> list[dict[str, Any]] | None:
        view = self.views.get(seat)
        if view is not None and int(view.get("version") or 0) == self.version:
            return list(view["you"].get("legal_actions") or [])
        st, body = self._call("GET", f"/v1/games/{self.gid}/actions", "GET actions", self.tokens[seat],
                              lat=self.stats.get_lat)
        if st != 200:
            return None
        if int(body.get("version") or 0) > self.version:
            self.version, self.turn = int(body["version"]), None  # someone moved on: look again
        return list(body.get("legal_actions") or [])

    def step(self) -> None:
        """One move: whose turn -> their legal actions -> POST a random one."""
        if self.turn is None:
            game = self.refresh()
            if game is None:
                return
            why = self.round_over(game)
            if why:
                self.stats.rounds_over[why] += 1
                self.new_game()
                return
            if self.turn is None:
                self.stats.rounds_over["no turn seat"] += 1
                self.new_game()
                return
        seat = self.turn
        actions = self.legal(seat)
        if not actions:
            self.turn = None
            if actions is not None:
                self._error("no legal actions for the turn seat", f"seat {seat} at version {self.version}")
            return
        action = self.rng.choice(actions)
        st, body = self._call("POST", f"/v1/games/{self.gid}/actions", "POST actions", self.tokens[seat], action,
                              lat=self.stats.move_lat)
        if st != 200 or not isinstance(body, dict):
            self.turn = None
            return
        self.stats.moves += 1
        game = body.get("game") or {}
        self._see(game)
        why = self.round_over(game)
        if why:
            self.stats.rounds_over[why] += 1
            self.new_game()


def drive(base: str, clients: int, seconds: float, seed: int) -> tuple[Stats, float, float, str | None]:
    """Run the load; returns merged stats, wall seconds, client CPU seconds, and a setup error if any."""
    per_thread = [Stats() for _ in range(clients)]
    failed: list[str] = []
    window: dict[str, float] = {}

    def open_window() -> None:  # run once, when every table is set up, before anyone is released
        window["cpu0"], window["t0"] = time.process_time(), time.perf_counter()
        window["end"] = window["t0"] + (0 if failed else seconds)

    barrier = threading.Barrier(clients, action=open_window)

    def run(i: int) -> None:
        stats = per_thread[i]
        player = Player(base, stats, random.Random(seed * 1000 + i))
        try:
            player.new_game()
        except SetupFailed:
            failed.append("; ".join(f"{k}: {v}" for k, v in stats.samples.items()))
        except Exception as exc:  # noqa: BLE001 - report, do not hang the barrier
            failed.append(repr(exc))
        stats.setups, stats.setup_s = 0, 0.0  # the first setup is not part of the window
        barrier.wait()
        if failed:
            return
        deadline = window["end"]
        while time.perf_counter() < deadline:
            try:
                player.step()
            except SetupFailed:
                time.sleep(0.05)
            except Exception as exc:  # noqa: BLE001 - a surprising body must not end the run
                player._error(f"client exc:{type(exc).__name__}", repr(exc))
                player.turn = None
        player.http.close()

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - window["t0"]
    cpu = time.process_time() - window["cpu0"]
    total = Stats()
    for s in per_thread:
        total.merge(s)
    return total, wall, cpu, (failed[0] if failed else None)


# ---------------------------------------------------------------------- reporting
def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))] * 1000


@dataclass
class Result:
    name: str
    stats: Stats
    wall: float
    client_cpu: float
    server_cpu: float
    redis_cpu: float
    setup_error: str | None = None
    clients: int = 16
    machine_busy: float = 0.0  # cores busy over the window, everything on the machine

    @property
    def moves_s(self) -> float:
        return self.stats.moves / self.wall if self.wall > 0 else 0.0

    @property
    def requests_s(self) -> float:
        n = len(self.stats.move_lat) + len(self.stats.get_lat) + 4 * self.stats.setups
        return n / self.wall if self.wall > 0 else 0.0


def measure(name: str, spec: str, env: dict[str, str], redis_ut: RedisUnderTest, args: argparse.Namespace) -> Result:
    print(f"[{name}] starting gunicorn {spec} ...", flush=True)
    server = Gunicorn(spec, env)
    try:
        pids = server.pids()
        srv0, rds0, mach0 = proc_cpu_s(pids), redis_ut.cpu_s(), machine_cpu()
        print(f"[{name}] {args.clients} clients for {args.seconds:g} s against {server.base} ...", flush=True)
        stats, wall, client_cpu, err = drive(server.base, args.clients, args.seconds, args.seed)
        srv = proc_cpu_s(pids) - srv0
        rds = redis_ut.cpu_s() - rds0
        mach1 = machine_cpu()
        busy = (mach1[0] - mach0[0]) / max(1.0, mach1[1] - mach0[1]) * (os.cpu_count() or 1)
        if err:
            print(f"[{name}] setup failed: {err}")
            print(f"[{name}] gunicorn log tail:\n{server.log_tail()}")
        elif any(k.endswith(" 500") for k in stats.errors):
            print(f"[{name}] gunicorn log tail:\n{server.log_tail()}")
        return Result(name, stats, wall, client_cpu, srv, rds, err, args.clients, busy)
    finally:
        server.stop()
        server.remove_log()


def report(results: list[Result]) -> None:
    print()
    head = f"{'name':<8} {'moves/s':>9} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'GET p50':>8} {'moves':>7} " \
           f"{'games':>6} {'errors':>7} {'cpu srv':>8} {'cpu rds':>8} {'cpu cli':>8} {'machine':>8}"
    print(head)
    print("-" * len(head))
    for r in results:
        s = r.stats
        cpu = lambda x: f"{100 * x / r.wall:.0f}%" if r.wall > 0 else "-"  # noqa: E731 - % of one core
        print(f"{r.name:<8} {r.moves_s:>9.0f} {r.requests_s:>8.0f} {pct(s.move_lat, .5):>8.2f} "
              f"{pct(s.move_lat, .99):>8.2f} {pct(s.get_lat, .5):>8.2f} {s.moves:>7} {s.setups:>6} "
              f"{sum(s.errors.values()):>7} {cpu(r.server_cpu):>8} {cpu(r.redis_cpu):>8} {cpu(r.client_cpu):>8} "
              f"{100 * r.machine_busy:>7.0f}%")
    by = {r.name: r for r in results}
    if "meow" in by and "minimal" in by and by["minimal"].moves_s > 0:
        m, c = by["meow"], by["minimal"]
        print(f"\nmeow / minimal: {m.moves_s / c.moves_s:.2f}x moves/s; "
              f"p50 {pct(m.stats.move_lat, .5) / pct(c.stats.move_lat, .5):.1f}x, "
              f"p99 {pct(m.stats.move_lat, .99) / pct(c.stats.move_lat, .99):.1f}x the minimal latency")
    print("\n(moves/s: accepted action POSTs per wall second, fresh-game setup time included; req/s: all HTTP"
          "\n requests; p50/p99: action POST latency; GET p50: legal-actions/view GETs; games: fresh games set up"
          "\n in the window; cpu: % of one core over the window — gunicorn master+workers, Redis, this client;"
          "\n machine: all cores busy, whoever uses them (other processes included)."
          f"\n This machine has {os.cpu_count()} cores shared by all three.)")
    for r in results:
        s = r.stats
        if s.errors:
            print(f"\n[{r.name}] errors by kind:")
            for kind, n in s.errors.most_common():
                print(f"  {n:>6}  {kind}   e.g. {s.samples.get(kind, '')[:200]}")
        if s.rounds_over:
            print(f"[{r.name}] games replaced because: " + ", ".join(f"{k} x{n}" for k, n in s.rounds_over.items())
                  + f"; fresh-game setups took {s.setup_s:.2f} s of client-thread time "
                  f"({100 * s.setup_s / max(1e-9, r.wall * r.clients):.1f}%)")




def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=15.0, help="length of each measured window (default 15)")
    p.add_argument("--clients", type=int, default=16, help="concurrent client threads, one game each (default 16)")
    p.add_argument("--only", choices=("meow", "minimal"), help="measure just one of the two")
    p.add_argument("--seed", type=int, default=1, help="seed of the clients' random choices")
    p.add_argument("--worker-class", choices=("gevent", "gthread"), default=None,
                   help="gunicorn worker class for both apps (default: make run's, gevent)")
    args = p.parse_args(argv)
    if args.worker_class:
        GUNICORN.extend(["--worker-class", args.worker_class] + (["--threads", "8"] if args.worker_class == "gthread" else []))
    os.chdir(ROOT)
    redis_ut = RedisUnderTest()
    print(f"Redis {redis_ut.version()}: {redis_ut.where}; key prefix {redis_ut.uid}", flush=True)
    results: list[Result] = []
    try:
        common = {"REDIS_URL": redis_ut.url, "MEOW_QUEUE": redis_ut.uid, "WEB_CONCURRENCY": "2",
                  "MEOW_RATE_LIMITS": "off"}  # a load test: the limits would be what it measures
        if args.only in (None, "meow"):
            try:
                results.append(measure("meow", "service.api.app:create_app()",
                                       {**common, "MEOW_KEY_PREFIX": redis_ut.uid}, redis_ut, args))
            except RuntimeError as exc:
                print(f"[meow] {exc}")
        if args.only in (None, "minimal"):
            results.append(measure("minimal", "bench.minimal_app:create_app()",
                                   {**common, "MEOW_KEY_PREFIX": f"{redis_ut.uid}-min"}, redis_ut, args))
    finally:
        deleted = redis_ut.cleanup()
        print(f"cleanup: deleted {deleted} keys with prefix {redis_ut.uid}"
              + ("; embedded Redis stopped" if redis_ut.embedded else ""), flush=True)
    report(results)


if __name__ == "__main__":
    main()
