"""Key names. Every key of a game carries its shard tag ``{<prefix>:<shard>}`` (one hash slot)."""
from __future__ import annotations

from dataclasses import dataclass

from service.eventstore.contract import shard_of


@dataclass(frozen=True, slots=True)
class Keys:
    prefix: str = "meow"

    def tag(self, shard: str) -> str:
        return "{" + f"{self.prefix}:{shard}" + "}"

    def stream(self, game_id: str) -> str:
        return f"{self.tag(shard_of(game_id))}:g:{game_id}"

    def tokens(self, game_id: str) -> str:
        return f"{self.tag(shard_of(game_id))}:tok:{game_id}"

    def snapshots(self, game_id: str) -> str:
        return f"{self.tag(shard_of(game_id))}:snap:{game_id}"

    def report(self, game_id: str) -> str:
        """A finished game's verify report, computed once (service/app/verify_cache.py)."""
        return f"{self.tag(shard_of(game_id))}:vr:{game_id}"

    def compact(self, game_id: str) -> str:
        """A compacted game's events (service/eventstore/compact.py): fields v, h, b."""
        return f"{self.tag(shard_of(game_id))}:z:{game_id}"

    def idem_index(self, game_id: str) -> str:
        """The names of the game's idempotency records (deleted with them when it is compacted)."""
        return f"{self.tag(shard_of(game_id))}:idx:{game_id}"

    def idem(self, game_id: str, key: str) -> str:
        return f"{self.tag(shard_of(game_id))}:idem:{game_id}:{key}"

    def due(self, shard: str) -> str:
        return f"{self.tag(shard)}:due"

    def inflight(self, shard: str) -> str:
        return f"{self.tag(shard)}:inflight"

    def payloads(self, shard: str) -> str:
        return f"{self.tag(shard)}:duejobs"

    def wake(self, shard: str) -> str:
        return f"{self.tag(shard)}:wake"

    def wake_at(self, shard: str) -> str:
        """When the dispatcher next looks at the shard (ms; it expires with the dispatcher away)."""
        return f"{self.tag(shard)}:wakeat"

    def lobby(self, shard: str) -> str:
        return f"{self.tag(shard)}:lobby"

    def lobby_index(self, shard: str, status: str | None, variant: str | None) -> str:
        """The shard's sorted set (score: created_at) of the games of a status ("all" for every
        status), of one variant or of all."""
        return f"{self.tag(shard)}:lobby:{status or 'all'}" + (f":{variant}" if variant else "")

    def lobby_indexes(self, shard: str, variant: str) -> list[str]:
        """The eight indexes a game of ``variant`` may be in: (all, each status) x (any, its variant)."""
        return [self.lobby_index(shard, st, v) for st in (None, "open", "running", "finished") for v in (None, variant)]

    def feed(self, shard: str) -> str:
        """The shard's append notifications (game id, version), read by the live-feed hubs."""
        return f"{self.tag(shard)}:feed"

    def lease(self, kind: str, ident: str) -> str:
        """Open-stream leases of one token or client address (its own slot: no hot shard)."""
        return "{" + f"{self.prefix}:lease:{kind}:{ident}" + "}"

    def apikeys(self) -> str:
        """The operator's API keys: one hash, key id -> record (service/app/api_keys.py)."""
        return "{" + f"{self.prefix}:keys" + "}:apikeys"

    def apikey_log(self, key_id: str) -> str:
        """A key's audit log (a list, newest first, capped): in the keys' slot, so a change and its
        entry are one script."""
        return "{" + f"{self.prefix}:keys" + "}:apikeys:log:" + key_id

    def key_games(self, key_id: str) -> str:
        """A key's tables (its own lobby): a sorted set, score created_at (its own slot per key)."""
        return "{" + f"{self.prefix}:kg:{key_id}" + "}"
