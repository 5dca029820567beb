"""The request's API key (service/app/api_keys.py): the ``Meow-Key`` header, resolved once per
request. No header: anonymous (today's per-address limits); a header that is not an active key:
401 ``key_invalid`` on every /v1 operation — never silently anonymous, so an integrator whose key
was revoked or rotated learns it at once rather than meeting the anonymous limits.

``install`` hooks the app: the check runs after the rate limits (service/api/limits.py count a bad
key's requests by address, so guessing keys is rate limited like anything else), and each answer
to a keyed request is counted in the key's usage (service/metrics.py ``meow_key_requests_total``)."""
from __future__ import annotations

from typing import Any

from flask import Flask, Response, g, has_request_context, request

from service import metrics
from service.api.http import service, settings
from service.app import api_keys
from service.app.api_keys import ApiKey, Quotas
from service.app.codes import AppCode
from service.app.errors import AppError

KEY_HEADER = "Meow-Key"
_INVALID = object()  # a header that is no active key


def presented() -> str | None:
    """The raw header (stripped), or None when the request carries none."""
    if not has_request_context():
        return None
    raw = request.headers.get(KEY_HEADER, "").strip()
    return raw or None


def _resolved() -> Any:
    """The request's key, None (no header) or ``_INVALID``: resolved once, kept on ``flask.g``."""
    if "meow_api_key" not in g:
        raw = presented()
        found = api_keys.resolve(service().api_keys, raw) if raw is not None else None
        g.meow_api_key = _INVALID if raw is not None and found is None else found
    return g.meow_api_key


def current_key() -> ApiKey | None:
    """The request's key, or None without the header; 401 ``key_invalid`` for a malformed,
    unknown, rotated-away or revoked key. Resolved once per request (cached on ``flask.g``)."""
    found = _resolved()
    if found is _INVALID:
        raise AppError(AppCode.KEY_INVALID, f"the {KEY_HEADER} header is not an active key")
    return found if isinstance(found, ApiKey) else None


def require_key() -> ApiKey:
    """The request's key; 401 ``key_required`` without one (``key_invalid`` for a bad one)."""
    key = current_key()
    if key is None:
        raise AppError(AppCode.KEY_REQUIRED, f"this needs an API key in the {KEY_HEADER} header")
    return key


def quiet_key() -> ApiKey | None:
    """The request's key, None for none or a bad one (never raises: for the rate limits' buckets)."""
    if not has_request_context() or presented() is None:
        return None
    found = _resolved()
    return found if isinstance(found, ApiKey) else None


def quotas() -> Quotas | None:
    """The request's key's quotas, every one filled in (None: anonymous)."""
    key = quiet_key()
    return key.quotas.effective(settings()) if key is not None else None


def stream_slot() -> tuple[str, int] | None:
    """(key id, its cap on open streams) of a keyed request: its streams count against the key, not
    its address (service/app/stream_slots.py)."""
    key = quiet_key()
    return (key.id, key.quotas.effective(settings()).max_streams or 0) if key is not None else None


UNLIMITED = frozenset(("/healthz", "/readyz", "/metrics"))


def request_kind() -> str:
    """The request's bucket, for the rate limits (service/api/limits.py) and a key's usage: creates,
    writes, reads, or none (health, metrics, anything outside /v1)."""
    if request.path in UNLIMITED or not request.path.startswith("/v1/"):
        return "none"
    if request.method in ("GET", "HEAD"):
        return "reads"
    if request.method == "POST" and request.path.rstrip("/") in ("/v1/games", "/v1/quickplay", "/v1/arenas"):
        return "creates"  # each makes tables (an arena: service/api/arenas.py)
    return "writes"


def install(app: Flask) -> None:
    """The key check on every /v1 request (after the rate limits) and the per-key usage count."""

    @app.before_request
    def _check_key() -> None:
        if request.path.startswith("/v1/") and presented() is not None:
            current_key()

    @app.after_request
    def _count(resp: Response) -> Response:
        key = g.get("meow_api_key")
        if isinstance(key, ApiKey):
            metrics.observe_key(key.id, request_kind(), resp.status_code, settings().key_metrics_max)
        return resp
