"""Opaque bearer tokens: 256 random bits from ``secrets``; only their SHA-256 is stored."""
from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass

import orjson

from service.games.kernel.model import Event


def new_token(random_bytes: Callable[[int], bytes] = secrets.token_bytes) -> str:
    """32 random bytes as URL-safe base64, as ``secrets.token_urlsafe(32)`` makes them."""
    return base64.urlsafe_b64encode(random_bytes(32)).rstrip(b"=").decode("ascii")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is asking, for one game: the owner, a seat, an auditor or a spectator."""

    role: str  # "owner" | "seat" | "audit" | "spectator"
    seat: int | None = None
    token_hash: str | None = None

    @property
    def is_owner(self) -> bool:
        return self.role == "owner"

    @property
    def scope(self) -> str:
        """The idempotency scope of this caller."""
        return self.token_hash[:32] if self.token_hash else "anon"


SPECTATOR = Caller("spectator")


def role_record(role: str, seat: int | None = None) -> bytes:
    return orjson.dumps({"role": role, "seat": seat})


def caller_from_record(record: bytes, thash: str) -> Caller:
    body = orjson.loads(record)
    return Caller(body["role"], body.get("seat"), thash)


def caller_after(caller: Caller, event: Event) -> Caller | None:
    """Who the caller is once ``event`` happened; None when it revoked the caller's token.

    RULES §3.10 / §2.7: a ``SeatLeft`` of the caller's seat (a leave, an owner's removal, an absent
    seat removed) revokes that seat's token; an owner who held the seat stays owner, seatless.
    """
    if caller.seat is None or event.type != "SeatLeft" or event.data.get("seat") != caller.seat:
        return caller
    if caller.role == "owner":
        return Caller("owner", None, caller.token_hash)
    return None
