"""The composition root: build the store and the application from settings (lazily connecting)."""
from __future__ import annotations

from typing import Any

from service.app.games import GameService
from service.app.plugins import Integrations
from service.eventstore.ports import EventStore
from service.settings import Settings


def redis_pool(url: str, max_connections: int = 64, **kw: Any) -> Any:
    """A bounded pool that makes a caller wait (up to 10 s) for a free connection, rather than
    open one per concurrent greenlet (redis-py 7) or fail at 100 (redis-py 8): under gevent a
    process may have thousands of requests in flight."""
    import redis

    return redis.BlockingConnectionPool.from_url(url, max_connections=max_connections, timeout=10, **kw)


def redis_client(url: str, max_connections: int = 64, **kw: Any) -> Any:
    """A client of the Redis ``url`` names: one server, or a Redis Cluster (service/redis_urls.py)."""
    from service.redis_urls import cluster_client, is_cluster

    if is_cluster(url):
        return cluster_client(url, max_connections, **kw)
    import redis

    return redis.Redis(connection_pool=redis_pool(url, max_connections, **kw))


def queue_client(settings: Settings, **kw: Any) -> Any:
    """RQ's Redis: MEOW_QUEUE_URL, else REDIS_URL when that is one server. RQ cannot run on a
    cluster (its commands span keys of many slots), so a cluster's games need a queue Redis."""
    url = settings.queue_url
    if not url and not settings.redis_url:
        raise RuntimeError("REDIS_URL is not set: start the service with `meow run` (embedded Redis) or set REDIS_URL")
    if not url:
        raise RuntimeError("REDIS_URL names a Redis Cluster: set MEOW_QUEUE_URL to a single Redis for RQ's queues")
    return redis_client(url, **kw)


def build_store(settings: Settings) -> EventStore:
    from service.eventstore.contract import SHARDS
    from service.eventstore.redis_store import RedisEventStore

    if not settings.redis_url:
        raise RuntimeError("REDIS_URL is not set: start the service with `meow run` (embedded Redis) or set REDIS_URL")
    client = redis_client(settings.redis_url, settings.redis_pool_size, socket_timeout=10)
    # blocking reads: one feed reader per shard, plus a few long waits (store.wait, the dispatcher)
    blocking = redis_client(settings.redis_url, len(SHARDS) + 16, socket_timeout=settings.max_wait_s + 10)
    from service.replicas import replica_watch, wait_replicas

    return RedisEventStore(client, prefix=settings.key_prefix, blocking_client=blocking,
                           wait_replicas=wait_replicas(settings, client), wait_timeout_ms=settings.wait_timeout_ms,
                           watch=replica_watch(settings, client))


def integrations() -> Integrations:
    """The one registration point, built: every integration plugged into the table core
    (service/app/plugins.py, service/integrations/)."""
    from service.integrations import register_all

    return register_all(Integrations())


def build_arenas(settings: Settings, enqueue: Any, store: EventStore | None = None,
                 plugged: Integrations | None = None) -> Any:
    """``Arenas`` (service/app/arenas.py) over the game store given (or built) and the arenas' store
    on the settings' Redis (service/eventstore/ports/arenas.py), with the integrations given (the
    process's service's) or built; ``enqueue`` puts its jobs on the arena lane (service/arena_lane.py)."""
    from service.app.arenas import Arenas
    from service.eventstore.arenas import RedisArenas

    if not settings.redis_url:
        raise RuntimeError("arenas need REDIS_URL")
    games = store if store is not None else build_store(settings)
    return Arenas(games, RedisArenas(redis_client(settings.redis_url, 16, socket_timeout=10), settings.key_prefix),
                  settings, enqueue, integrations=plugged if plugged is not None else integrations())


def build_service(settings: Settings, store: EventStore | None = None, plugged: Integrations | None = None) -> GameService:
    return GameService(store if store is not None else build_store(settings), settings,
                       integrations=plugged if plugged is not None else integrations())
