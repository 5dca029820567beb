"""The hash chain over a game's events (docs/audit.md): canonical JSON, SHA-256, linked.

``hash_n = SHA-256(raw(hash_{n-1}) || canonical(record_n))`` with ``hash_0`` = 32 zero bytes,
where ``record_n`` is the stored event as the history shows it (without its own hash).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

GENESIS = "0" * 64


def canonical(value: Any) -> bytes:
    """Keys sorted by code point, no whitespace, UTF-8, minimal escapes, ints in decimal."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def link(prev_hash: str, record: Mapping[str, Any]) -> str:
    return hashlib.sha256(bytes.fromhex(prev_hash) + canonical(record)).hexdigest()


def audit_record(seq: int, body: Mapping[str, Any]) -> dict[str, Any]:
    """The hashed form of a stored event body (codec keys t v at r s d p x c)."""
    record: dict[str, Any] = {
        "seq": seq,
        "type": body["t"],
        "schema_version": body["v"],
        "at_ms": body["at"],
        "round": body["r"],
        "seat": body["s"],
        "data": body["d"],
    }
    if body.get("p"):
        record["private"] = body["p"]
    if body.get("x"):
        record["secret"] = body["x"]
    if body.get("c"):
        record["command"] = body["c"]
    if body.get("n"):
        record["nonce"] = body["n"]
    return record
