"""The request's API key (service/app/api_keys.py): the ``Meow-Key`` header, resolved once per
request. No header: anonymous (today's per-address limits); a header that is not an active key:
401 ``key_invalid`` — never silently anonymous, so an integrator whose key was revoked or rotated
learns it at once rather than meeting the anonymous limits."""
from __future__ import annotations

from flask import g, has_request_context, request

from service.api.http import service
from service.app import api_keys
from service.app.api_keys import ApiKey
from service.app.codes import AppCode
from service.app.errors import AppError

KEY_HEADER = "Meow-Key"
_UNSET = object()


def presented() -> str | None:
    """The raw header (stripped), or None when the request carries none."""
    if not has_request_context():
        return None
    raw = request.headers.get(KEY_HEADER, "").strip()
    return raw or None


def current_key() -> ApiKey | None:
    """The request's key, or None without the header; 401 ``key_invalid`` for a malformed,
    unknown, rotated-away or revoked key. Resolved once per request (cached on ``flask.g``)."""
    found = g.get("meow_api_key", _UNSET)
    if found is _UNSET:
        raw = presented()
        found = api_keys.resolve(service().api_keys, raw) if raw is not None else None
        if raw is not None and found is None:
            g.meow_api_key = _UNSET
            raise AppError(AppCode.KEY_INVALID, f"the {KEY_HEADER} header is not an active key")
        g.meow_api_key = found
    return found


def require_key() -> ApiKey:
    """The request's key; 401 ``key_required`` without one (``key_invalid`` for a bad one)."""
    key = current_key()
    if key is None:
        raise AppError(AppCode.KEY_REQUIRED, f"this needs an API key in the {KEY_HEADER} header")
    return key
