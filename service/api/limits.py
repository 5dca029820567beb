"""Request rate limits (flask-limiter on the same Redis): per token and per client address prefix
(IPv4 /24, IPv6 /64 by default: MEOW_PREFIX_V4/_V6), in
separate buckets for creates, writes and reads. A request with an API key (service/api/keys.py)
counts against that key's own quotas instead of its address's (its token's still apply).
Beyond a limit: 429 problem+json ``rate_limited``
with ``Retry-After``; every limited answer carries ``RateLimit-Limit/-Remaining/-Reset``.

The operations whose work grows with a game's length (history, verify, state?at, events: COSTLY)
also spend a cost budget, per token and per client network (http.peer_prefix), in cost units
(service/app/meter.py: 100 events folded, projected or written out, or 20 replayed by a
verification). A request is let in while its budgets have a unit left, and charged what its work
cost once it is done, so one long answer may overdraw the budget and the next request waits for
the window to turn; a request that did less than a unit of work is not charged.

The defaults are far above what a person playing or a client integrating does (a single address
creating more than a few hundred games a minute is not either); benchmarks and load tests raise
them with the MEOW_RATE_* settings or turn them off with MEOW_RATE_LIMITS=off.
"""
from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, g, request
from flask_limiter import HeaderNames, Limit, Limiter

from service.api.client import client_address, client_prefix
from service.api.http import peer_prefix
from service.api.keys import quiet_key, quotas, request_kind
from service.app import meter
from service.redis_urls import is_cluster
from service.settings import Settings
from service.wiring import redis_pool

COSTLY = frozenset(("/v1/games/<game_id>/history", "/v1/games/<game_id>/verify", "/v1/games/<game_id>/state",
                    "/v1/games/<game_id>/events"))  # GET: what they cost grows with the game


def _storage_options(settings: Settings) -> dict[str, Any]:
    """A bounded pool for one Redis; a cluster's client is made by limits (pools per node)."""
    if not settings.redis_url:
        return {}
    if is_cluster(settings.redis_url):
        return {"socket_timeout": 5, "max_connections": 32}
    return {"connection_pool": redis_pool(settings.redis_url, 32, socket_timeout=5)}


_kind = request_kind  # the request's bucket (service/api/keys.py)


def _costly() -> bool:
    return request.method in ("GET", "HEAD") and request.url_rule is not None and request.url_rule.rule in COSTLY


def _units() -> int:
    """The request's cost so far (at least 1: before the work, a unit must be left to start it)."""
    spent = g.get("meow_meter")
    return max(1, spent.units) if spent is not None else 1


def _charged(_resp: Response) -> bool:
    spent = g.get("meow_meter")
    return spent is not None and spent.units > 0


def _key_bucket() -> str:
    key = quiet_key()
    return "key:" + (key.id if key is not None else "-")


def _token_key() -> str:
    header = request.headers.get("Authorization", "")
    return "tok:" + hashlib.sha256(header.encode()).hexdigest()[:32]


def install(app: Flask, settings: Settings) -> Limiter | None:
    if settings.rate_limits == "off":
        return None

    def address() -> str:  # the client's network (IPv4 /24, IPv6 /64 by default): a neighbour shares it
        peer = client_address(request.environ, settings.trusted_proxies)
        return "addr:" + client_prefix(peer, settings.prefix_v4, settings.prefix_v6)

    def limit(kind: str, per: str, value: str) -> Limit:
        key = address if per == "address" else _token_key
        tokenless = per == "token"
        keyed = per == "address"  # a request with an API key counts against the key instead (key_limit)
        return Limit(value, key_function=key, shared=True, scope=f"{kind}-{per}",
                     error_message=f"too many {kind} from this {per}: at most {value}",
                     exempt_when=lambda: _kind() != kind or (tokenless and not request.headers.get("Authorization"))
                     or (keyed and quiet_key() is not None))

    def cost_limit(per: str, value: str) -> Limit:
        key = (lambda: "net:" + peer_prefix()) if per == "address" else _token_key
        return Limit(value, key_function=key, shared=True, scope=f"cost-{per}", cost=_units, deduct_when=_charged,
                     error_message=f"this {per}'s requests cost too much work: at most {value} cost units "
                                   "(history, verify, state and events cost by the events they touch)",
                     exempt_when=lambda: not _costly() or (per == "token" and not request.headers.get("Authorization"))
                     or (per == "address" and quiet_key() is not None))

    def key_limit(kind: str) -> Limit:
        """The key's own quota of a kind (its Quotas, else the settings' default for keys), in the
        key's own bucket, instead of the address's: a portal's backend serving many users from one
        address counts against its key."""
        def value() -> str:
            quota = quotas()
            return f"{getattr(quota, f'{kind}_per_minute') if quota else 1}/minute"

        return Limit(value, key_function=_key_bucket, shared=True, scope=f"{kind}-key",
                     error_message=lambda: f"too many {kind} with this API key: at most {value()}",
                     exempt_when=lambda: _kind() != kind or quiet_key() is None)

    def key_cost_limit() -> Limit:
        def value() -> str:
            quota = quotas()
            return f"{quota.cost_per_minute if quota else 1}/minute"

        return Limit(value, key_function=_key_bucket, shared=True, scope="cost-key", cost=_units,
                     deduct_when=_charged, exempt_when=lambda: not _costly() or quiet_key() is None,
                     error_message=lambda: f"this API key's requests cost too much work: at most {value()} cost "
                                           "units (history, verify, state and events cost by the events they touch)")

    @app.before_request
    def _meter() -> None:  # registered before flask-limiter's check: a fresh meter for each request
        g.meow_meter = meter.start()

    @app.teardown_request
    def _unmeter(_exc: BaseException | None) -> None:
        meter.stop()

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
        key_limit("creates"),
        limit("writes", "token", settings.rate_writes_per_token),
        limit("writes", "address", settings.rate_writes_per_address),
        key_limit("writes"),
        limit("reads", "token", settings.rate_reads_per_token),
        limit("reads", "address", settings.rate_reads_per_address),
        key_limit("reads"),
        cost_limit("token", settings.rate_cost_per_token),  # last: the RateLimit-* headers name a count
        cost_limit("address", settings.rate_cost_per_address),  # bucket unless a cost budget refuses
        key_cost_limit(),
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
