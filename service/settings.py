"""Configuration from the environment. Nothing here connects to anything."""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Settings:
    redis_url: str | None = None  # None: the launcher starts an embedded Redis
    key_prefix: str = "meow"
    queue_name: str = "meow"
    audit_token_hashes: frozenset[str] = field(default_factory=frozenset)
    max_body_bytes: int = 64 * 1024
    idempotency_ttl_s: int = 86400
    max_wait_s: float = 30.0
    state_cache_size: int = 2048
    port: int = 8000
    data_dir: str = "var"
    web_workers: int = 2
    web_threads: int = 16
    worker_class: str = "simple"  # "simple" (no fork per job) or "fork"
    lease_ms: int = 10_000

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> "Settings":
        e = os.environ if env is None else env
        audit = [t.strip() for t in e.get("MEOW_AUDIT_TOKENS", "").split(",") if t.strip()]
        return cls(
            redis_url=e.get("REDIS_URL") or None,
            key_prefix=e.get("MEOW_KEY_PREFIX", "meow"),
            queue_name=e.get("MEOW_QUEUE", "meow"),
            audit_token_hashes=frozenset(hashlib.sha256(t.encode()).hexdigest() for t in audit),
            port=int(e.get("PORT", "8000")),
            data_dir=e.get("MEOW_DATA_DIR", "var"),
            web_workers=int(e.get("WEB_CONCURRENCY", "2")),
            web_threads=int(e.get("MEOW_WEB_THREADS", "16")),
            worker_class=e.get("MEOW_WORKER_CLASS", "simple"),
        )
