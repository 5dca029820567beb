"""The event store contract shared by the in-memory twin and the Redis store.

One stream per game (ids ``<seq>-0``), a due set of follow-ups per shard, idempotency
records, token hashes and a lobby summary per game, all keyed under the game's shard tag
so that one append touches one hash slot.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from service.eventstore.codec import Stored
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

    def encoded(self) -> list[bytes]:
        from service.eventstore.codec import encode_batch

        return list(self.payloads) if self.payloads is not None else encode_batch(self.events, self.prev_hash, self.command)


class EventStore(Protocol):
    def append(self, req: AppendRequest) -> AppendResult: ...

    def read(self, game_id: str, after: int = 0) -> list[Event]: ...

    def read_stored(self, game_id: str, after: int = 0, count: int | None = None) -> list[Stored]: ...

    def version(self, game_id: str) -> int: ...

    def wait(self, game_id: str, after: int, timeout_s: float) -> bool: ...

    def versions(self, game_ids: list[str]) -> dict[str, int]: ...

    def feed_head(self, shard: str) -> str: ...

    def feed_read(self, shard: str, after_id: str, block_ms: int, count: int = 512) -> tuple[str, list[tuple[str, int]]]: ...

    def lease_name(self, kind: str, ident: str) -> str: ...

    def lease_acquire(self, name: str, member: str, limit: int, now_ms: int, ttl_ms: int) -> bool: ...

    def lease_renew(self, held: list[tuple[str, str]], now_ms: int, ttl_ms: int) -> None: ...

    def lease_release_many(self, held: list[tuple[str, str]]) -> None: ...

    def idem_get(self, game_id: str, key: str) -> bytes | None: ...

    # snapshots: a cache of folded states by version (service/app/snapshots.py), never the truth
    def snapshot_put(self, game_id: str, version: int, blob: bytes) -> None: ...

    # the newest snapshot of the game at a version <= at_most (the newest of all when None)
    def snapshot_get(self, game_id: str, at_most: int | None = None) -> tuple[int, bytes] | None: ...

    def snapshot_drop(self, game_id: str) -> int: ...

    # a finished game's verify report (service/app/verify_cache.py): a cache kept as long as the
    # game, through compaction, deleted with it (evict_game); never written for a game that is gone
    def report_get(self, game_id: str) -> bytes | None: ...

    def report_put(self, game_id: str, blob: bytes) -> bool:
        """Keep ``blob`` as the game's report if the game exists (stream or compact form)."""
        ...

    def token_get(self, game_id: str, token_hash: str) -> bytes | None: ...

    def meta_put(self, game_id: str, name: str, value: bytes | None) -> None:
        """Set (or, with None, delete) one field of the game's store-side metadata, kept in its
        token hash beside the token aliases ("meta:<name>", read with ``token_get``) and deleted
        with it: never part of the stream, never in any answer (service/app/fairness.py)."""
        ...

    def lobby(self) -> dict[str, bytes]: ...

    def lobby_page(self, status: str | None, variant: str | None, before: tuple[int, str] | None,
                   limit: int) -> list[bytes]:
        """Up to ``limit`` summaries, newest first (ties by id), strictly after the cursor ``before``
        ((created_at, id) of the last game of the previous page); O(shards x limit)."""
        ...

    def expire_game(self, game_id: str, expected_version: int, variant: str) -> bool:
        """Delete a never-started game and everything of it (stream, tokens, lobby entries), if it
        is still at ``expected_version``."""
        ...

    # compaction (service/eventstore/compact.py): a finished game's stream becomes one compressed
    # record under the same hash tag; every read above serves it byte for byte as before
    def compact(self, game_id: str, expected_version: int) -> str:
        """Replace the game's stream by its compact form if it is still at ``expected_version``
        (its idempotency records go; tokens, snapshots and lobby rows stay): "compacted",
        "already" (idempotent), "conflict" (the version moved), "missing" (no stream) or
        "irregular" (a stream the compact form would not give back byte for byte: left as it is).
        A compacted game takes no more events (an append is a conflict)."""
        ...

    def form(self, game_id: str) -> str:
        """How the game is held: "stream", "compact" or "none"."""
        ...

    def evict_game(self, game_id: str, expected_version: int, variant: str) -> bool:
        """Delete a game and everything of it (stream or compact form, tokens, snapshots, verify
        report, idempotency records, lobby row and indexes) if it is still at ``expected_version``."""
        ...

    def schedule(self, followup: FollowUp) -> None: ...

    def claim_due(self, shard: str, now: int, lease_ms: int, limit: int = 100) -> list[Claimed]: ...

    def next_due(self, shard: str) -> int | None: ...

    def finish_due(self, shard: str, job_id: str) -> None: ...

    def extend_due(self, shard: str, job_ids: Sequence[str], until: int) -> None:
        """Extend the lease of claimed (in-flight) follow-ups to ``until``: work a dispatcher still
        holds (the fair search line, workers/fair.py) is not put back and claimed twice."""
        ...

    def recover_expired(self, shard: str, now: int) -> list[str]: ...
