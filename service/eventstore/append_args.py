"""The arguments of one append, named in one place.

``AppendArgs.of(req)`` encodes what an ``AppendRequest`` writes (its events, its follow-ups'
payloads) before anything is touched; the in-memory twin applies those fields, and the Redis store
flattens them into append.lua's KEYS (``AppendKeys``) and ARGV (``AppendHead``, then the variable
part). The script names each KEYS[n] and the head's ARGV[n] on a line of its own, in the order of
these tuples' fields; tests/contract/test_append_args.py reads the script and checks they agree.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from service.eventstore.codec import to_json
from service.eventstore.contract import AppendRequest, IdemWrite, Listing, shard_of
from service.eventstore.keys import Keys


class AppendKeys(NamedTuple):
    """append.lua's KEYS, in order: all under the game's shard tag (one hash slot)."""

    stream: str
    due: str
    due_payloads: str
    tokens: str
    idem: str  # the idempotency record's key ("-" when the append has none)
    lobby: str
    wake: str
    feed: str
    lobby_all: str  # the lobby indexes (Keys.lobby_indexes): (all, each status) x (any, the variant)
    lobby_all_variant: str
    lobby_open: str
    lobby_open_variant: str
    lobby_running: str
    lobby_running_variant: str
    lobby_finished: str
    lobby_finished_variant: str
    compact: str
    idem_index: str
    inflight: str  # the shard's claimed follow-ups (a cancelled job id already claimed stays: it is running)
    wake_at: str  # the dispatcher's next planned look at the shard (ms): a later follow-up pushes no wake-up


class AppendHead(NamedTuple):
    """The head of append.lua's ARGV (fixed positions); the variable part follows (``AppendArgs.argv``)."""

    expected_version: int
    event_count: int
    has_idem: str  # "1" | "0"
    idem_record: bytes
    idem_ttl_s: int
    game_id: str
    lobby_row: bytes  # b"" = none
    followup_count: int
    token_count: int
    revoke_count: int
    cancel_count: int


class DueArg(NamedTuple):
    """One follow-up as the append writes it: job id, due time (ms), payload (JSON)."""

    job_id: str
    due_at: int
    payload: bytes


@dataclass(frozen=True, slots=True)
class AppendArgs:
    """What one append writes, encoded: the same fields for every backend."""

    game_id: str
    expected_version: int
    events: list[bytes]
    followups: list[DueArg]
    tokens: Mapping[str, bytes]
    revoke: Sequence[str]
    idem: IdemWrite | None
    lobby_row: bytes | None
    listing: Listing | None
    cancel: Sequence[str] = ()

    @classmethod
    def of(cls, req: AppendRequest) -> AppendArgs:
        """Encode everything first: an unencodable event leaves nothing behind (all or nothing)."""
        return cls(req.game_id, req.expected_version, req.encoded(),
                   [DueArg(f.job_id, f.due_at, to_json(f.payload)) for f in req.followups],
                   req.tokens, req.revoke, req.idem, req.lobby, req.listing, req.cancel)

    @property
    def shard(self) -> str:
        return shard_of(self.game_id)

    def keys(self, k: Keys) -> AppendKeys:
        gid = self.game_id
        due, payloads, lobby, wake, feed, *indexes = _shard_keys(k, self.shard, self.listing.variant if self.listing else "-")
        return AppendKeys._make([k.stream(gid), due, payloads, k.tokens(gid), self.idem_key(k), lobby, wake, feed,
                                 *indexes, k.compact(gid), k.idem_index(gid), k.inflight(self.shard),
                                 k.wake_at(self.shard)])

    def idem_key(self, k: Keys) -> str:
        return k.idem(self.game_id, self.idem.key if self.idem else "-")

    def head(self) -> AppendHead:
        idem = self.idem
        return AppendHead(self.expected_version, len(self.events), "1" if idem else "0",
                          idem.record if idem else b"", idem.ttl_s if idem else 0, self.game_id,
                          self.lobby_row or b"", len(self.followups), len(self.tokens), len(self.revoke), len(self.cancel))

    def argv(self) -> list[Any]:
        """The head, the events, the follow-ups' triples, the tokens' pairs, the revoked hashes,
        the cancelled job ids, then the listing ("1" status prev-status created-at; prev-status "" for a new game) or "0"."""
        args: list[Any] = [*self.head(), *self.events]
        for f in self.followups:
            args += f
        for h, rec in self.tokens.items():
            args += (h, rec)
        args += self.revoke
        args += self.cancel
        listing = self.listing
        args += ("1", listing.status, listing.prev_status or "", listing.created_at) if listing else ("0",)
        return args


@functools.lru_cache(maxsize=1024)
def _shard_keys(k: Keys, shard: str, variant: str) -> tuple[str, ...]:
    """The keys of an append that depend only on the shard and the variant (16 shards x a few
    variants: built once)."""
    return (k.due(shard), k.payloads(shard), k.lobby(shard), k.wake(shard), k.feed(shard),
            *k.lobby_indexes(shard, variant))
