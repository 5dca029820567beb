"""The composition root: build the store and the application from settings (lazily connecting)."""
from __future__ import annotations

from typing import Any

from service.app.games import GameService
from service.settings import Settings


def redis_client(url: str, **kw: Any) -> Any:
    import redis

    return redis.Redis.from_url(url, **kw)


def build_store(settings: Settings) -> Any:
    from service.eventstore.redis_store import RedisEventStore

    if not settings.redis_url:
        raise RuntimeError("REDIS_URL is not set: start the service with `meow run` (embedded Redis) or set REDIS_URL")
    client = redis_client(settings.redis_url, socket_timeout=10)
    blocking = redis_client(settings.redis_url, socket_timeout=settings.max_wait_s + 10)
    return RedisEventStore(client, prefix=settings.key_prefix, blocking_client=blocking)


def build_service(settings: Settings, store: Any = None) -> GameService:
    return GameService(store if store is not None else build_store(settings), settings)
