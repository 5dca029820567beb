"""Which Redis a URL names, and a client for it: a single server (``redis://``, ``rediss://``,
``unix://``) or a Redis Cluster (``redis+cluster://host:port[,host:port...]``, ``rediss+cluster://``
for TLS), the scheme flask-limiter's storage (the ``limits`` package) also understands.

A cluster client is redis-py's ``RedisCluster``: it routes every command by its keys' hash slot.
meow sends no command whose keys span two slots (docs/scaling.md), so one client serves it all.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

CLUSTER_SCHEMES = ("redis+cluster", "rediss+cluster")


def is_cluster(url: str | None) -> bool:
    return bool(url) and urlsplit(url).scheme in CLUSTER_SCHEMES


def startup_nodes(url: str) -> list[tuple[str, int]]:
    """The seed nodes of a cluster URL: ``redis+cluster://h1:p1,h2:p2`` (port 6379 by default)."""
    netloc = urlsplit(url).netloc.rsplit("@", 1)[-1]
    out = []
    for part in netloc.split(","):
        host, _, port = part.strip().rpartition(":") if ":" in part else (part.strip(), "", "6379")
        out.append((host or "127.0.0.1", int(port or 6379)))
    return out


def cluster_client(url: str, max_connections: int = 64, **kw: Any) -> Any:
    """A RedisCluster for ``url``; ``max_connections`` bounds each node's pool (it blocks when full)."""
    from redis.cluster import ClusterNode, RedisCluster

    parts = urlsplit(url)
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    if parts.password:
        kw.setdefault("password", parts.password)
    if parts.username:
        kw.setdefault("username", parts.username)
    if parts.scheme.startswith("rediss"):
        kw.setdefault("ssl", True)
    if "socket_timeout" in query:
        kw.setdefault("socket_timeout", float(query["socket_timeout"]))
    return RedisCluster(startup_nodes=[ClusterNode(h, p) for h, p in startup_nodes(url)],
                        max_connections=max_connections, **kw)
