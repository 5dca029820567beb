"""Request rate limits (flask-limiter on the same Redis): per token and per client address, in
separate buckets for creates, writes and reads. Beyond a limit: 429 problem+json ``rate_limited``
with ``Retry-After``; every limited answer carries ``RateLimit-Limit/-Remaining/-Reset``.

The defaults are far above what a person playing or a client integrating does (a single address
creating more than a few hundred games a minute is not either); benchmarks and load tests raise
them with the MEOW_RATE_* settings or turn them off with MEOW_RATE_LIMITS=off.
"""
from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, request
from flask_limiter import HeaderNames, Limit, Limiter

from service.api.client import client_address
from service.redis_urls import is_cluster
from service.settings import Settings
from service.wiring import redis_pool

UNLIMITED = frozenset(("/healthz", "/readyz", "/metrics"))


def _storage_options(settings: Settings) -> dict[str, Any]:
    """A bounded pool for one Redis; a cluster's client is made by limits (pools per node)."""
    if not settings.redis_url:
        return {}
    if is_cluster(settings.redis_url):
        return {"socket_timeout": 5, "max_connections": 32}
    return {"connection_pool": redis_pool(settings.redis_url, 32, socket_timeout=5)}


def _kind() -> str:
    if request.path in UNLIMITED or not request.path.startswith("/v1/"):
        return "none"
    if request.method in ("GET", "HEAD"):
        return "reads"
    if request.method == "POST" and request.path.rstrip("/") == "/v1/games":
        return "creates"
    return "writes"


def _token_key() -> str:
    header = request.headers.get("Authorization", "")
    return "tok:" + hashlib.sha256(header.encode()).hexdigest()[:32]


def install(app: Flask, settings: Settings) -> Limiter | None:
    if settings.rate_limits == "off":
        return None

    def address() -> str:
        return "addr:" + client_address(request.environ, settings.trusted_proxies)

    def limit(kind: str, per: str, value: str) -> Limit:
        key = address if per == "address" else _token_key
        tokenless = per == "token"
        return Limit(value, key_function=key, shared=True, scope=f"{kind}-{per}",
                     error_message=f"too many {kind} from this {per}: at most {value}",
                     exempt_when=lambda: _kind() != kind or (tokenless and not request.headers.get("Authorization")))

    @app.after_request
    def _headers(resp: Response) -> Response:  # runs after flask-limiter's own (registered later)
        reset = resp.headers.get("RateLimit-Reset")
        if reset and reset.isdigit():  # seconds until the window resets, as RateLimit-Reset means
            resp.headers["RateLimit-Reset"] = str(max(0, int(reset) - int(time.time())))
        if resp.status_code not in (429, 503):  # flask-limiter's, on answers that are not refusals
            resp.headers.pop("Retry-After", None)
        elif resp.status_code == 503:  # the store's answer (api/errors.py), not the limiter's window
            resp.headers["Retry-After"] = "1"
        return resp

    defaults: list[str | Callable[[], str] | Limit] = [  # flask-limiter's own type for the list
        limit("creates", "address", settings.rate_creates_per_address),
        limit("writes", "token", settings.rate_writes_per_token),
        limit("writes", "address", settings.rate_writes_per_address),
        limit("reads", "token", settings.rate_reads_per_token),
        limit("reads", "address", settings.rate_reads_per_address),
    ]
    return Limiter(
        key_func=address,
        app=app,
        default_limits=defaults,
        storage_uri=settings.redis_url or "memory://",  # limits knows redis+cluster:// too
        storage_options=_storage_options(settings),
        key_prefix=f"{settings.key_prefix}-rl",
        strategy="fixed-window",
        headers_enabled=True,
        header_name_mapping={HeaderNames.LIMIT: "RateLimit-Limit", HeaderNames.REMAINING: "RateLimit-Remaining",
                             HeaderNames.RESET: "RateLimit-Reset", HeaderNames.RETRY_AFTER: "Retry-After"},
        retry_after="delta-seconds",
        swallow_errors=True,  # Redis away: requests are not refused for want of a counter
    )
