"""The records the event store's ports exchange (service/eventstore/ports/: one Protocol per
concern), shared by the in-memory twin and the Redis store.

One stream per game (ids ``<seq>-0``), a due set of follow-ups per shard, idempotency
records, token hashes and a lobby summary per game, all keyed under the game's shard tag
so that one append touches one hash slot.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from service.games.kernel.model import Event

SHARDS = "0123456789abcdef"
STATUSES = ("open", "running", "finished")


def shard_of(game_id: str) -> str:
    """The shard tag of a game: the first character of its id (16 shards)."""
    return game_id[0]


class NotReplicated(Exception):
    """An append (or the replay of one) that fewer replicas than the store waits for confirmed
    within its timeout (``MEOW_WAIT_REPLICAS``): it may have been applied on the primary, and a
    failover before the replicas catch up may lose it. Answered 503; a retry with the same
    Idempotency-Key returns the stored answer once the replicas hold it."""

    def __init__(self, wanted: int, got: int) -> None:
        super().__init__(f"{got} of {wanted} replicas confirmed the write")
        self.wanted, self.got = wanted, got


@dataclass(frozen=True, slots=True)
class FollowUp:
    """Work the new events call for, due at ``due_at`` (ms), under a deterministic job id."""

    job_id: str
    due_at: int
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class IdemWrite:
    """An idempotency record written with the events; ``key`` is already caller-scoped."""

    key: str
    record: bytes
    ttl_s: int = 86400


@dataclass(frozen=True, slots=True)
class AppendResult:
    status: str  # "ok" | "conflict" | "duplicate"
    version: int  # the stream version after the call (current version on conflict)
    record: bytes | None = None  # the stored idempotency record on "duplicate"

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass(frozen=True, slots=True)
class Claimed:
    job_id: str
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Listing:
    """Where a game is listed in the lobby indexes after an append (and where it was before)."""

    status: str  # open | running | finished
    variant: str
    created_at: int
    prev_status: str | None = None  # None: a new game


@dataclass(frozen=True, slots=True)
class AppendRequest:
    """Everything one command writes, atomically, or nothing."""

    game_id: str
    expected_version: int
    events: Sequence[Event]
    followups: Sequence[FollowUp] = ()
    tokens: Mapping[str, bytes] = field(default_factory=dict)  # token hash -> role record
    revoke: Sequence[str] = ()  # token hashes to delete
    idem: IdemWrite | None = None
    lobby: bytes | None = None  # the game's lobby summary after this append
    prev_hash: str | None = None  # the chain hash of event ``expected_version`` (GENESIS for a new game)
    command: Mapping[str, Any] | None = None  # the command that produced the events (kept on the first)
    payloads: Sequence[bytes] | None = None  # the events already encoded by codec.encode_batch
    listing: Listing | None = None  # the lobby indexes to keep (with ``lobby``)
    cancel: Sequence[str] = ()  # due job ids this append closes (a turn's timer): taken out of the due set

    def encoded(self) -> list[bytes]:
        from service.eventstore.codec import encode_batch

        return list(self.payloads) if self.payloads is not None else encode_batch(self.events, self.prev_hash, self.command)
