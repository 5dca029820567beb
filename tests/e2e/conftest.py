"""End-to-end: gunicorn serving the API and a real `meow worker` process, on a real Redis."""
from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import requests

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AUDIT = "e2e-audit-token"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Stack:
    base: str
    env: dict


def _wait_ready(base: str, procs: list[subprocess.Popen]) -> None:
    deadline = time.monotonic() + 60
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


BOTS_AT_FULL_SPEED = {"MEOW_BOTS_ONLY_MIN_DELAY_MS": "0", "MEOW_BOTS_ONLY_PER_OWNER": "0",
                      "MEOW_BOTS_ONLY_PER_ADDRESS": "0"}


def start_api(env: dict, port: int, workers: int = 2) -> subprocess.Popen:
    """gunicorn as `meow run` starts it (service/gunicorn_conf.py: gevent workers)."""
    return subprocess.Popen([sys.executable, "-m", "gunicorn", "--config", "python:service.gunicorn_conf",
                             "--workers", str(workers), "--bind", f"127.0.0.1:{port}", "service.api.app:create_app()"],
                            env=env, cwd=ROOT)


@contextlib.contextmanager
def live_stack(redis_url: str, **extra_env: str) -> Iterator[Stack]:
    """gunicorn + one `meow worker` on the real Redis under a fresh key prefix, all removed afterwards."""
    import redis

    prefix = f"meowtest-e2e-{uuid.uuid4().hex[:8]}"
    port = _free_port()
    # bots-only tables play at full speed and uncapped here, as the suite was written for (their
    # pace floor and caps have their own tests: tests/api/test_fair_search.py)
    env = dict(os.environ, REDIS_URL=redis_url, MEOW_KEY_PREFIX=prefix, MEOW_QUEUE=prefix,
               MEOW_AUDIT_TOKENS=AUDIT, PYTHONPATH=ROOT, **{**BOTS_AT_FULL_SPEED, **extra_env})
    web = start_api(env, port)
    worker = subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env=env, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(base, [web, worker])
        yield Stack(base, env)
    finally:
        for p in (web, worker):
            p.terminate()
        for p in (web, worker):
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
        client = redis.Redis.from_url(redis_url)
        for pattern in (f"*{prefix}*",):
            for key in client.scan_iter(match=pattern, count=1000):
                client.delete(key)
        client.close()


@pytest.fixture(scope="module")
def stack(redis_url: str) -> Iterator[Stack]:
    with live_stack(redis_url) as s:
        yield s
