"""Preconditions and idempotency of writes: the version a caller last saw (If-Match or the body), and
the stored answer of an Idempotency-Key — written with the events by the same append, holding the
answer's status, its range of events and its extra fields, with fresh tokens sealed so that only a
caller holding the raw key can open them again. Reading a stored answer back checks that the key
names the same request and opens its sealed tokens; the write path turns it into the replayed outcome."""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from service.app.codes import AppCode
from service.app.errors import AppError
from service.eventstore.contract import IdemWrite


@dataclass(frozen=True)
class Precondition:
    """The version the caller last saw, from If-Match or from the body (the API answers 412 or 409)."""

    version: int
    source: str  # "if_match" | "body"

    def error(self, current: int) -> AppError:
        return AppError(AppCode.VERSION_CONFLICT, f"the game is at version {current}", precondition=self.source,
                        version=current)


@dataclass(frozen=True)
class Idempotency:
    key: str  # a hash of the client's key: names the stored record
    request_hash: str
    secret: bytes = b""  # another hash of the client's key, never stored: seals tokens in the record

    def scoped(self, scope: str) -> str:
        """The record's name for one caller's scope (``Caller.scope``): keys never cross callers."""
        return f"{scope}:{self.key}"

    def seal(self, name: str, value: str) -> str:
        """XOR with an HMAC keystream: only a caller holding the raw key can open it again."""
        raw = value.encode()
        return bytes(a ^ b for a, b in zip(raw, self._stream(name, len(raw)))).hex()

    def unseal(self, name: str, sealed: str) -> str:
        raw = bytes.fromhex(sealed)
        return bytes(a ^ b for a, b in zip(raw, self._stream(name, len(raw)))).decode()

    def _stream(self, name: str, n: int) -> bytes:
        out = b""
        counter = 0
        while len(out) < n:
            out += hmac.new(self.secret, f"seal/{name}/{counter}".encode(), hashlib.sha256).digest()
            counter += 1
        return out[:n]


@dataclass(frozen=True)
class StoredAnswer:
    """An answer read back from its record: events ``first``..``last`` and the body's extra fields."""

    status: int
    first: int
    last: int
    extra: Mapping[str, Any]
    sealed: Mapping[str, str]

    def fields(self, idem: Idempotency) -> dict[str, Any]:
        """The extra fields with the sealed ones opened again (the key's secret opens them)."""
        out = dict(self.extra)
        out.update({k: idem.unseal(k, v) for k, v in self.sealed.items()})
        return out


def answer_record(idem: Idempotency, scoped: str, status: int, first: int, last: int, extra: dict[str, Any],
                  sealed: Mapping[str, str], ttl_s: int) -> IdemWrite:
    """The record of one answer, for the append to write with its events."""
    return IdemWrite(scoped, orjson.dumps({
        "h": idem.request_hash, "status": status, "from": first, "to": last, "extra": extra,
        "sealed": {k: idem.seal(k, v) for k, v in sealed.items()}}), ttl_s)


def read_answer(record: bytes, idem: Idempotency) -> StoredAnswer:
    """The stored answer of this request; a key used with another request is refused."""
    body = orjson.loads(record)
    if body["h"] != idem.request_hash:
        raise AppError(AppCode.IDEMPOTENCY_KEY_REUSED, "this Idempotency-Key was used with a different request")
    return StoredAnswer(body["status"], body["from"], body["to"], body["extra"], body.get("sealed", {}))
