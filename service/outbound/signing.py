"""Signing of outbound requests: HMAC-SHA256 over a timestamp and the body (contract S).

The receiver recomputes `v1=<hex HMAC-SHA256(secret, b"<timestamp>." + body)>`, compares it in
constant time, refuses a timestamp outside its tolerance (a replayed request) and drops a
`Meow-Delivery` id it has seen before (at-least-once delivery). The scheme is Stripe's, so an
integrator's existing verifier fits with the header names changed.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping

TIMESTAMP = "Meow-Timestamp"
DELIVERY = "Meow-Delivery"
SIGNATURE = "Meow-Signature"
SCHEME = "v1"
MAX_SIGNATURES = 8  # a header naming more candidates than this is refused unread


def signature(secret: str, body: bytes, timestamp: int) -> str:
    """The hex HMAC-SHA256 of `b"<timestamp>." + body` under `secret`."""
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def sign(secret: str, body: bytes, *, timestamp: int, delivery_id: str) -> dict[str, str]:
    """The headers that let a receiver check who sent `body`, when, and whether it saw it already."""
    return {
        TIMESTAMP: str(int(timestamp)),
        DELIVERY: delivery_id,
        SIGNATURE: f"{SCHEME}={signature(secret, body, int(timestamp))}",
    }


def _header(headers: Mapping[str, str], name: str) -> str | None:
    value = headers.get(name)
    if value is not None:
        return value
    low = name.lower()
    for k, v in headers.items():  # a plain dict from a framework that kept another case
        if k.lower() == low:
            return v
    return None


def _candidates(header: str) -> list[str]:
    """The `v1=` values of a signature header (`v1=a,v1=b` while a secret is rotated)."""
    parts = [p.strip() for p in header.replace(" ", ",").split(",") if p.strip()]
    if len(parts) > MAX_SIGNATURES:
        return []
    return [p[len(SCHEME) + 1:] for p in parts if p.startswith(SCHEME + "=")]


def verify(secret: str, body: bytes, headers: Mapping[str, str], *, now: int, tolerance_s: int = 300) -> bool:
    """True when `headers` sign `body` under `secret` within `tolerance_s` of `now` (constant-time compare)."""
    stamp, sig = _header(headers, TIMESTAMP), _header(headers, SIGNATURE)
    if stamp is None or sig is None or not stamp.isascii() or not stamp.isdigit() or len(stamp) > 12:
        return False
    timestamp = int(stamp)
    if abs(now - timestamp) > tolerance_s:
        return False
    expected = signature(secret, body, timestamp).encode()
    ok = False
    for candidate in _candidates(sig):
        # compare every candidate (no early exit), each in constant time
        ok = hmac.compare_digest(expected, candidate.encode("ascii", "replace")) or ok
    return ok
