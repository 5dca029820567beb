"""The event store's backends, in one place: every contract class (one per port, tests/contract)
runs on each of them through the ``store`` fixture (tests/contract/conftest.py).

- ``memory``: the in-memory twin;
- ``fakeredis``: RedisEventStore on fakeredis (its own server per test);
- ``redis``: RedisEventStore on a real Redis (REDIS_URL, or the embedded server of tests/conftest.py)
  under a unique prefix;
- ``cluster``: RedisEventStore on a 3-primary Redis Cluster on loopback (redis-py's cluster client:
  a command whose keys span two hash slots would fail there).
"""
from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import fakeredis
import redis

from service.eventstore.memory import MemoryEventStore
from service.eventstore.redis_store import RedisEventStore


@contextlib.contextmanager
def _memory(fixture: Callable[[str], Any]) -> Iterator[Any]:
    yield MemoryEventStore()


@contextlib.contextmanager
def _fakeredis(fixture: Callable[[str], Any]) -> Iterator[Any]:
    server = fakeredis.FakeServer()
    client = fakeredis.FakeRedis(server=server)
    blocking = fakeredis.FakeRedis(server=server)
    yield RedisEventStore(client, prefix=f"meowtest-{uuid.uuid4().hex[:12]}", blocking_client=blocking)


@contextlib.contextmanager
def _redis(fixture: Callable[[str], Any]) -> Iterator[Any]:
    url, prefix = fixture("redis_url"), fixture("key_prefix")
    client = redis.Redis.from_url(url)
    blocking = redis.Redis.from_url(url, socket_timeout=60)
    try:
        yield RedisEventStore(client, prefix=prefix, blocking_client=blocking)
    finally:
        client.close()
        blocking.close()


@contextlib.contextmanager
def _cluster(fixture: Callable[[str], Any]) -> Iterator[Any]:
    from service.redis_urls import cluster_client

    cluster = fixture("redis_cluster")
    client = cluster_client(cluster.url)
    blocking = cluster_client(cluster.url, socket_timeout=60)
    prefix = f"meowtest-{uuid.uuid4().hex[:12]}"
    try:
        yield RedisEventStore(client, prefix=prefix, blocking_client=blocking)
    finally:
        for key in client.scan_iter(match=f"*{prefix}*", count=1000, target_nodes=client.ALL_NODES):
            client.delete(key)
        client.close()
        blocking.close()


OPEN: dict[str, Callable[[Callable[[str], Any]], contextlib.AbstractContextManager[Any]]] = {
    "memory": _memory,
    "fakeredis": _fakeredis,
    "redis": _redis,
    "cluster": _cluster,
}
"""Each backend by name: a context manager given ``request.getfixturevalue`` that yields a store."""

BACKENDS = tuple(OPEN)
REDIS_BACKENDS = tuple(name for name in BACKENDS if name != "memory")
"""The backends that are RedisEventStore (for the checks of its key space and expiry)."""
