"""Configuration from the environment. Nothing here connects to anything."""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Settings:
    redis_url: str | None = None  # None: the launcher starts an embedded Redis; redis+cluster://: a cluster
    queue_redis_url: str | None = None  # MEOW_QUEUE_URL: RQ's queues (default: redis_url unless a cluster)
    key_prefix: str = "meow"
    queue_name: str = "meow"
    audit_token_hashes: frozenset[str] = field(default_factory=frozenset)
    max_body_bytes: int = 64 * 1024
    idempotency_ttl_s: int = 86400
    max_wait_s: float = 30.0
    state_cache_size: int = 2048
    snapshot_every: int = 1000  # a snapshot each time a game's version crosses a multiple (0: none)
    host: str = "127.0.0.1"  # MEOW_HOST: where the API listens (containers: 0.0.0.0; service/listen.py)
    port: int = 8000
    data_dir: str = "var"
    web_workers: int = 2
    web_threads: int = 16
    worker_class: str = "simple"  # "simple" (no fork per job) or "fork"
    lease_ms: int = 10_000  # MEOW_LEASE_MS: a job's lease (due work, lane jobs, arena games): retaken once unrenewed this long
    wait_replicas: int = 0  # MEOW_WAIT_REPLICAS: an append answers once this many replicas hold it (-1, unset: 1
    # when every primary has a replica at start, else 0: service/replicas.py)
    wait_without_replica: str = "answer"  # MEOW_WAIT_WITHOUT_REPLICA: a primary with none connected: answer, or refuse (503)
    wait_timeout_ms: int = 1000  # MEOW_WAIT_TIMEOUT_MS: else 503 store_unavailable after this long
    redis_pool_size: int = 64  # connections per process (a bounded, blocking pool)
    web_worker_class: str = "gevent"  # gunicorn worker class: "gevent" (streams cost memory) or "gthread"
    web_connections: int = 10_000  # gevent: open connections per API process
    trusted_proxies: tuple[str, ...] = ()  # networks whose X-Forwarded-For is believed
    prefix_v4: int = 24  # a client's budgets and caps count per IPv4 /24 (client.client_prefix)
    prefix_v6: int = 64  # and per IPv6 /64
    header_timeout_s: float = 10.0  # a request's line and headers must arrive within this (0: no limit)
    body_timeout_s: float = 10.0  # and its body within this once the headers are in (0: no limit)
    max_conns_per_address: int = 128  # open connections per client address, per API process (0: no cap)
    max_conns_per_prefix: int = 512  # and per client prefix (prefix_v4/prefix_v6), per API process
    max_streams_per_token: int = 8
    max_streams_per_address: int = 64
    sse_heartbeat_s: float = 7.0
    sse_max_s: float = 300.0
    stream_buffer: int = 256  # batches a stream may fall behind before it is cut off
    max_bot_budget_ms: int = 3000  # caps a table's hard_bot_budget_ms
    search_workers: int = 1  # `meow run`: workers that take hard searches (and fast work when idle)
    fast_workers: int = 1  # `meow run`: workers that never take a search
    # fair search (docs/reliability.md "Fair search and bots-only tables")
    search_slice_ms: int = 250  # while other tables wait for the search lane, a search takes at most this
    search_min_ms: int = 25  # a search granted less than its table asked never gets less than this
    search_idle_ms: int = 5000  # a table is alone on the search lane if no other searched this recently
    bots_only_per_owner: int = 8  # running bots-only tables per owner (creator's /24 or /64; 0: no cap)
    bots_only_per_address: int = 4  # running bots-only tables per creating address (0: no cap)
    bots_only_min_delay_ms: int = 100  # a bot of a bots-only table (not an arena) waits at least this
    open_game_ttl_s: int = 86_400  # a table nobody starts is deleted after this
    compact_after_s: int = 3600  # a finished game is compacted this long after its match ended (<0: never)
    quickplay_wait_ms: int = 20_000  # quick play: a table no second human joined starts with bots after this
    quickplay_seats_per_address: int = 1  # quick play: seats one address takes at one public table (0: no cap)
    quickplay_tables: int = 8  # quick play: open public tables of a variant an address's seats are steered across
    players_per_key: int = 100_000  # players with a record per API key and variant (a new one beyond: not recorded)
    rate_limits: str = "on"  # "off" for benchmarks and load tests
    rate_creates_per_address: str = "300/minute"
    rate_writes_per_token: str = "1200/minute"
    rate_writes_per_address: str = "6000/minute"
    rate_reads_per_token: str = "3000/minute"
    rate_reads_per_address: str = "12000/minute"
    # cost units (service/app/meter.py: 100 events of work each) of history, verify, state?at and events
    rate_cost_per_token: str = "2000/minute"
    rate_cost_per_address: str = "6000/minute"  # per client network (client_prefix)
    stream_answers_over: int = 500  # events: a longer events or history answer is streamed in pieces
    # remote bots (service/app/remote_bots.py, docs/remote-bots.md)
    remote_bots_per_key: int = 10  # MEOW_REMOTE_BOTS_PER_KEY: registered bots per API key
    remote_bot_failures: int = 3  # MEOW_REMOTE_BOT_FAILURES: consecutive failures before a bot is away
    remote_bot_timeout_ms: int = 5000  # MEOW_REMOTE_BOT_TIMEOUT_MS: the most a turn's call waits (less: the deadline)
    remote_bot_concurrency: int = 4  # MEOW_REMOTE_BOT_CONCURRENCY: calls in flight per bot
    remote_host_concurrency: int = 8  # MEOW_REMOTE_HOST_CONCURRENCY: calls in flight per bot host
    remote_bot_health_ms: int = 5000  # MEOW_REMOTE_BOT_HEALTH_MS: how often an away bot is checked
    remote_bot_max_bytes: int = 64 * 1024  # MEOW_REMOTE_BOT_MAX_BYTES: the largest answer read
    remote_threads: int = 8  # MEOW_REMOTE_THREADS: remote-lane calls at once in one worker process
    # API keys (service/app/api_keys.py, docs/integrators.md)
    admin_token_hash: str | None = None  # MEOW_ADMIN_TOKEN's SHA-256: none set, /v1/admin/* answers 404
    max_api_keys: int = 1000  # keys the operator may create (0: no cap)
    key_creates_per_minute: int = 600  # a key's quotas unless it was given its own (per key, not per address)
    key_writes_per_minute: int = 12_000
    key_reads_per_minute: int = 24_000
    key_cost_per_minute: int = 12_000  # cost units (as rate_cost_per_*)
    key_max_streams: int = 256  # open event streams of one key at once
    key_games_max: int = 10_000  # a key's own lobby lists its newest tables up to this many
    key_metrics_max: int = 100  # keys with their own label in /metrics (the others count as "other")
    outbound_allow_private: bool = False  # MEOW_OUTBOUND_ALLOW_PRIVATE=1: webhooks/remote bots may reach loopback etc.
    # webhooks (service/app/webhooks.py, docs/integrators.md "Webhooks")
    webhooks_per_key: int = 10  # endpoints one key may subscribe
    webhook_timeout_s: float = 5.0  # one delivery attempt, connect to last byte (under the job lease)
    webhook_max_response_bytes: int = 16 * 1024  # a receiver's answer is read up to this, then cut
    webhook_retry_base_ms: int = 1000  # the first retry's wait; each next one doubles, up to the max
    webhook_retry_max_ms: int = 3_600_000
    webhook_retry_for_s: int = 86_400  # a delivery is retried for this long, then given up
    webhook_disable_after: int = 5  # deliveries given up in a row before the endpoint is disabled
    webhook_log_size: int = 1000  # deliveries a key's log keeps (the oldest go)
    webhook_rotate_grace_s: int = 86_400  # after a rotation, deliveries carry the old secret's signature too
    hook_workers: int = 1  # `meow run`: workers that take only webhook deliveries
    hook_threads: int = 8  # MEOW_HOOK_THREADS: webhook attempts at once in one hooks worker, shared across keys
    # arenas (service/app/arenas.py, docs/arenas.md)
    arenas_per_key: int = 2  # running arenas of one key (0: no cap)
    arenas_kept_per_key: int = 100  # ended arenas a key keeps (the oldest go)
    arena_max_games: int = 2000  # games of one arena
    arena_parallel: int = 2  # an arena's games played at once (one job each, on the arena lane)
    arena_game_timeout_s: int = 900  # an arena step's job timeout (a game's claim: a lease of lease_ms / 2)
    arena_workers: int = 1  # `meow run`: workers on the arena lane
    arena_slots: int = 3  # MEOW_ARENA_SLOTS: arena games one arena worker plays at once (threads, shared across keys)

    @property
    def queue_url(self) -> str | None:
        """Where RQ's queues live: MEOW_QUEUE_URL, else REDIS_URL if that is not a cluster."""
        from service.redis_urls import is_cluster

        if self.queue_redis_url:
            return self.queue_redis_url
        return None if is_cluster(self.redis_url) else self.redis_url

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        e = os.environ if env is None else env
        audit = [t.strip() for t in e.get("MEOW_AUDIT_TOKENS", "").split(",") if t.strip()]
        return cls(
            redis_url=e.get("REDIS_URL") or None,
            queue_redis_url=e.get("MEOW_QUEUE_URL") or None,
            key_prefix=e.get("MEOW_KEY_PREFIX", "meow"),
            queue_name=e.get("MEOW_QUEUE", "meow"),
            audit_token_hashes=frozenset(hashlib.sha256(t.encode()).hexdigest() for t in audit),
            host=e.get("MEOW_HOST", "127.0.0.1").strip() or "127.0.0.1",
            port=int(e.get("PORT", "8000")),
            data_dir=e.get("MEOW_DATA_DIR", "var"),
            web_workers=int(e.get("WEB_CONCURRENCY", "2")),
            web_threads=int(e.get("MEOW_WEB_THREADS", "16")),
            worker_class=e.get("MEOW_WORKER_CLASS", "simple"),
            lease_ms=int(e.get("MEOW_LEASE_MS", "10000")),
            redis_pool_size=int(e.get("MEOW_REDIS_POOL", "64")),
            wait_replicas=int(e.get("MEOW_WAIT_REPLICAS", "").strip() or "-1"),
            wait_without_replica=e.get("MEOW_WAIT_WITHOUT_REPLICA", "answer").strip() or "answer",
            wait_timeout_ms=int(e.get("MEOW_WAIT_TIMEOUT_MS", "1000")),
            snapshot_every=int(e.get("MEOW_SNAPSHOT_EVERY", "1000")),
            web_worker_class=e.get("MEOW_WEB_WORKER_CLASS", "gevent"),
            web_connections=int(e.get("MEOW_WEB_CONNECTIONS", "10000")),
            trusted_proxies=tuple(p.strip() for p in e.get("MEOW_TRUSTED_PROXIES", "").split(",") if p.strip()),
            prefix_v4=int(e.get("MEOW_PREFIX_V4", "24")),
            prefix_v6=int(e.get("MEOW_PREFIX_V6", "64")),
            header_timeout_s=float(e.get("MEOW_HEADER_TIMEOUT_S", "10")),
            body_timeout_s=float(e.get("MEOW_BODY_TIMEOUT_S", "10")),
            max_conns_per_address=int(e.get("MEOW_MAX_CONNS_PER_ADDRESS", "128")),
            max_conns_per_prefix=int(e.get("MEOW_MAX_CONNS_PER_PREFIX", "512")),
            max_streams_per_token=int(e.get("MEOW_MAX_STREAMS_PER_TOKEN", "8")),
            max_streams_per_address=int(e.get("MEOW_MAX_STREAMS_PER_ADDRESS", "64")),
            sse_heartbeat_s=float(e.get("MEOW_SSE_HEARTBEAT_S", "7")),
            sse_max_s=float(e.get("MEOW_SSE_MAX_S", "300")),
            max_bot_budget_ms=int(e.get("MEOW_MAX_BOT_BUDGET_MS", "3000")),
            search_workers=int(e.get("MEOW_SEARCH_WORKERS", "1")),
            fast_workers=int(e.get("MEOW_FAST_WORKERS", "1")),
            search_slice_ms=int(e.get("MEOW_SEARCH_SLICE_MS", "250")),
            search_min_ms=int(e.get("MEOW_SEARCH_MIN_MS", "25")),
            search_idle_ms=int(e.get("MEOW_SEARCH_IDLE_MS", "5000")),
            bots_only_per_owner=int(e.get("MEOW_BOTS_ONLY_PER_OWNER", "8")),
            bots_only_per_address=int(e.get("MEOW_BOTS_ONLY_PER_ADDRESS", "4")),
            bots_only_min_delay_ms=int(e.get("MEOW_BOTS_ONLY_MIN_DELAY_MS", "100")),
            open_game_ttl_s=int(e.get("MEOW_OPEN_GAME_TTL_S", "86400")),
            compact_after_s=int(e.get("MEOW_COMPACT_AFTER", "3600")),
            quickplay_wait_ms=int(e.get("MEOW_QUICKPLAY_WAIT_MS", "20000")),
            quickplay_seats_per_address=int(e.get("MEOW_QUICKPLAY_SEATS_PER_ADDRESS", "1")),
            quickplay_tables=max(1, int(e.get("MEOW_QUICKPLAY_TABLES", "8"))),
            players_per_key=int(e.get("MEOW_PLAYERS_PER_KEY", "100000")),
            rate_limits=e.get("MEOW_RATE_LIMITS", "on"),
            rate_creates_per_address=e.get("MEOW_RATE_CREATES_PER_ADDRESS", "300/minute"),
            rate_writes_per_token=e.get("MEOW_RATE_WRITES_PER_TOKEN", "1200/minute"),
            rate_writes_per_address=e.get("MEOW_RATE_WRITES_PER_ADDRESS", "6000/minute"),
            rate_reads_per_token=e.get("MEOW_RATE_READS_PER_TOKEN", "3000/minute"),
            rate_reads_per_address=e.get("MEOW_RATE_READS_PER_ADDRESS", "12000/minute"),
            rate_cost_per_token=e.get("MEOW_RATE_COST_PER_TOKEN", "2000/minute"),
            rate_cost_per_address=e.get("MEOW_RATE_COST_PER_ADDRESS", "6000/minute"),
            stream_answers_over=int(e.get("MEOW_STREAM_ANSWERS_OVER", "500")),
            remote_bots_per_key=int(e.get("MEOW_REMOTE_BOTS_PER_KEY", "10")),
            remote_bot_failures=max(1, int(e.get("MEOW_REMOTE_BOT_FAILURES", "3"))),
            remote_bot_timeout_ms=int(e.get("MEOW_REMOTE_BOT_TIMEOUT_MS", "5000")),
            remote_bot_concurrency=max(1, int(e.get("MEOW_REMOTE_BOT_CONCURRENCY", "4"))),
            remote_host_concurrency=max(1, int(e.get("MEOW_REMOTE_HOST_CONCURRENCY", "8"))),
            remote_bot_health_ms=max(100, int(e.get("MEOW_REMOTE_BOT_HEALTH_MS", "5000"))),
            remote_bot_max_bytes=int(e.get("MEOW_REMOTE_BOT_MAX_BYTES", str(64 * 1024))),
            remote_threads=max(1, int(e.get("MEOW_REMOTE_THREADS", "8"))),
            admin_token_hash=admin_token_hash(e.get("MEOW_ADMIN_TOKEN", "")),
            max_api_keys=int(e.get("MEOW_MAX_API_KEYS", "1000")),
            key_creates_per_minute=int(e.get("MEOW_KEY_CREATES_PER_MINUTE", "600")),
            key_writes_per_minute=int(e.get("MEOW_KEY_WRITES_PER_MINUTE", "12000")),
            key_reads_per_minute=int(e.get("MEOW_KEY_READS_PER_MINUTE", "24000")),
            key_cost_per_minute=int(e.get("MEOW_KEY_COST_PER_MINUTE", "12000")),
            key_max_streams=int(e.get("MEOW_KEY_MAX_STREAMS", "256")),
            key_games_max=int(e.get("MEOW_KEY_GAMES_MAX", "10000")),
            key_metrics_max=int(e.get("MEOW_KEY_METRICS_MAX", "100")),
            outbound_allow_private=e.get("MEOW_OUTBOUND_ALLOW_PRIVATE", "0").strip().lower() in ("1", "true", "yes", "on"),
            webhooks_per_key=int(e.get("MEOW_WEBHOOKS_PER_KEY", "10")),
            webhook_timeout_s=float(e.get("MEOW_WEBHOOK_TIMEOUT_S", "5")),
            webhook_max_response_bytes=int(e.get("MEOW_WEBHOOK_MAX_RESPONSE_BYTES", "16384")),
            webhook_retry_base_ms=int(e.get("MEOW_WEBHOOK_RETRY_BASE_MS", "1000")),
            webhook_retry_max_ms=int(e.get("MEOW_WEBHOOK_RETRY_MAX_MS", "3600000")),
            webhook_retry_for_s=int(e.get("MEOW_WEBHOOK_RETRY_FOR_S", "86400")),
            webhook_disable_after=int(e.get("MEOW_WEBHOOK_DISABLE_AFTER", "5")),
            webhook_log_size=int(e.get("MEOW_WEBHOOK_LOG_SIZE", "1000")),
            webhook_rotate_grace_s=int(e.get("MEOW_WEBHOOK_ROTATE_GRACE_S", "86400")),
            hook_workers=int(e.get("MEOW_HOOK_WORKERS", "1")),
            hook_threads=max(1, int(e.get("MEOW_HOOK_THREADS", "8"))),
            arenas_per_key=int(e.get("MEOW_ARENAS_PER_KEY", "2")),
            arenas_kept_per_key=int(e.get("MEOW_ARENAS_KEPT_PER_KEY", "100")),
            arena_max_games=int(e.get("MEOW_ARENA_MAX_GAMES", "2000")),
            arena_parallel=int(e.get("MEOW_ARENA_PARALLEL", "2")),
            arena_game_timeout_s=int(e.get("MEOW_ARENA_GAME_TIMEOUT_S", "900")),
            arena_workers=int(e.get("MEOW_ARENA_WORKERS", "1")),
            arena_slots=max(1, int(e.get("MEOW_ARENA_SLOTS", "3"))),
        )


ADMIN_TOKEN_MIN = 32  # characters of MEOW_ADMIN_TOKEN: the token hands out API keys, so it must not be guessable


class SettingsError(ValueError):
    """A setting the service refuses to start with; the message names it and says what to do."""


def admin_token_hash(raw: str) -> str | None:
    """MEOW_ADMIN_TOKEN's SHA-256 (unset or blank: None, /v1/admin answers 404); shorter than
    ``ADMIN_TOKEN_MIN`` characters it is refused (SettingsError) before anything starts."""
    token = raw.strip()
    if not token:
        return None
    if len(token) < ADMIN_TOKEN_MIN:
        raise SettingsError(
            f"MEOW_ADMIN_TOKEN has {len(token)} characters: it needs at least {ADMIN_TOKEN_MIN} (whoever guesses it "
            "issues API keys). Make one with: python -c 'import secrets; print(secrets.token_urlsafe(32))' "
            "- or unset MEOW_ADMIN_TOKEN to turn /v1/admin off")
    return hashlib.sha256(token.encode()).hexdigest()
