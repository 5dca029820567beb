"""The in-memory twin of the Redis event store, for fast tests. Same contract, one process."""
from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import orjson

from service.eventstore import versioned
from service.eventstore.append_args import AppendArgs
from service.eventstore.bot_records import MemoryBotRecords
from service.eventstore.codec import Stored, decode, decode_stored, game_of_created, to_json
from service.eventstore.compact import CompactCache, Compacted, Irregular, pack
from service.eventstore.contract import AppendRequest, AppendResult, Claimed, FollowUp, shard_of
from service.eventstore.players_store import MemoryPlayersMixin
from service.eventstore.ports.tokens import META
from service.eventstore.webhooks_memory import MemoryWebhooks
from service.games.kernel.model import Event


class MemoryEventStore(MemoryPlayersMixin, MemoryWebhooks, MemoryBotRecords):
    """Holds encoded events (so the codec is exercised exactly as with Redis)."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._streams: dict[str, list[bytes]] = defaultdict(list)
        self._tokens: dict[str, dict[str, bytes]] = defaultdict(dict)
        self._idem: dict[tuple[str, str], tuple[bytes, float]] = {}
        self._due: dict[str, dict[str, int]] = defaultdict(dict)
        self._inflight: dict[str, dict[str, int]] = defaultdict(dict)
        self._payloads: dict[str, dict[str, bytes]] = defaultdict(dict)
        self._lobby: dict[str, bytes] = {}
        self._listed: dict[str, tuple[str, str, int]] = {}  # game -> (status, variant, created_at)
        self._feed: dict[str, list[tuple[int, str, int]]] = defaultdict(list)
        self._feed_no = 0
        self._leases: dict[str, dict[str, int]] = defaultdict(dict)
        self._snapshots: dict[str, dict[int, bytes]] = defaultdict(dict)
        self._compact: dict[str, bytes] = {}  # game -> its compact form (its stream is gone)
        self._reports: dict[str, bytes] = {}  # game -> its verify report
        self._compacts = CompactCache()
        self._wakes: set[str] = set()  # shards with due work added since their last wait_wake
        self._wake_at: dict[str, tuple[int, float]] = {}  # shard -> (planned look ms, expires at: time.time())
        self._apikeys: dict[str, bytes] = {}  # key id -> record
        self._apikey_logs: dict[str, list[bytes]] = {}  # key id -> its audit log, newest first
        self._key_games: dict[str, dict[str, int]] = defaultdict(dict)  # key id -> {game id: created_at}

    def append(self, req: AppendRequest) -> AppendResult:
        # Encode everything before touching any state, as the Redis store does before its
        # script runs: an unencodable event must leave nothing behind (all or nothing).
        call = AppendArgs.of(req)
        gid = call.game_id
        with self._lock:
            if gid in self._compact:  # a compacted game takes no more events
                return AppendResult("conflict", self._compacted(gid).version)
            stream = self._streams[gid]
            if call.idem:
                prior = self._idem.get((gid, call.idem.key))
                if prior and prior[1] > time.time():
                    return AppendResult("duplicate", len(stream), prior[0])
            if len(stream) != call.expected_version:
                return AppendResult("conflict", len(stream))
            stream.extend(call.events)
            shard = call.shard
            added = [f.due_at for f in call.followups if f.job_id not in self._due[shard]]
            for f in call.followups:
                if f.job_id not in self._due[shard]:
                    self._due[shard][f.job_id] = f.due_at
                    self._payloads[shard][f.job_id] = f.payload
            planned = self._wake_at.get(shard)
            if added and (planned is None or planned[1] <= time.time() or min(added) < planned[0]):
                self._wakes.add(shard)
            for j in call.cancel:  # due work this append closed (one claimed is running: it stays)
                if self._due[shard].pop(j, None) is not None and j not in self._inflight[shard]:
                    self._payloads[shard].pop(j, None)
            self._tokens[gid].update(call.tokens)
            for h in call.revoke:
                self._tokens[gid].pop(h, None)
            if call.idem:
                self._idem[(gid, call.idem.key)] = (call.idem.record, time.time() + call.idem.ttl_s)
            if call.lobby_row:
                self._lobby[gid] = call.lobby_row
            if call.listing:
                self._listed[gid] = (call.listing.status, call.listing.variant, call.listing.created_at)
            if call.events:
                self._feed_no += 1
                feed = self._feed[shard]
                feed.append((self._feed_no, gid, len(stream)))
                del feed[:-10000]
            self._lock.notify_all()
            return AppendResult("ok", len(stream))

    def _compacted(self, game_id: str) -> Compacted:
        return self._compacts.get(game_id, self._compact[game_id])

    def _rows(self, game_id: str, after: int = 0, count: int | None = None) -> list[bytes]:
        """The stored bytes of events ``after+1 ..``, from the stream or the compact form."""
        with self._lock:
            if game_id in self._compact:
                return self._compacted(game_id).rows(after, count)
            rows = list(self._streams.get(game_id, ())[after:])
        return rows if count is None else rows[:count]

    def read(self, game_id: str, after: int = 0) -> list[Event]:
        game_of = self._game_of(game_id)
        return [decode(after + i + 1, raw, game_of) for i, raw in enumerate(self._rows(game_id, after))]

    def read_stored(self, game_id: str, after: int = 0, count: int | None = None) -> list[Stored]:
        game_of = self._game_of(game_id)
        return [decode_stored(after + i + 1, raw, game_of) for i, raw in enumerate(self._rows(game_id, after, count))]

    def _game_of(self, game_id: str) -> Callable[[], str | None]:
        """The stream's game, read from its MatchCreated only if an old schema version needs it."""
        def game_of() -> str | None:
            first = self._rows(game_id, 0, 1)
            return game_of_created(first[0]) if first else None
        return game_of

    def version(self, game_id: str) -> int:
        with self._lock:
            if game_id in self._compact:
                return self._compacted(game_id).version
            return len(self._streams.get(game_id, ()))

    def form(self, game_id: str) -> str:
        with self._lock:
            return "compact" if game_id in self._compact else "stream" if self._streams.get(game_id) else "none"

    def compact(self, game_id: str, expected_version: int) -> str:
        with self._lock:
            if game_id in self._compact:
                return "already"
            stream = list(self._streams.get(game_id, ()))
        if not stream:
            return "missing"
        if len(stream) != expected_version:
            return "conflict"
        try:
            blob, _head = pack(stream)
        except Irregular:
            return "irregular"
        with self._lock:
            if game_id in self._compact:
                return "already"
            if len(self._streams.get(game_id, ())) != expected_version:
                return "conflict"
            self._compact[game_id] = blob
            del self._streams[game_id]
            for key in [k for k in self._idem if k[0] == game_id]:
                del self._idem[key]
            return "compacted"

    def evict_game(self, game_id: str, expected_version: int, variant: str) -> bool:
        with self._lock:
            version = self._compacted(game_id).version if game_id in self._compact else len(self._streams.get(game_id, ()))
            if version == 0 or version != expected_version:
                return False
            for table in (self._streams, self._compact, self._tokens, self._lobby, self._listed, self._snapshots,
                          self._reports):
                table.pop(game_id, None)
            for key in [k for k in self._idem if k[0] == game_id]:
                del self._idem[key]
            return True

    def wait(self, game_id: str, after: int, timeout_s: float) -> bool:
        deadline = time.monotonic() + max(timeout_s, 0)
        if self.version(game_id) > after:
            return True
        with self._lock:
            while len(self._streams.get(game_id, ())) <= after:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(left)
            return True

    def versions(self, game_ids: list[str]) -> dict[str, int]:
        return {gid: self.version(gid) for gid in game_ids}

    def feed_head(self, shard: str) -> str:
        with self._lock:
            feed = self._feed.get(shard)
            return f"{feed[-1][0]}-0" if feed else "0-0"

    def feed_read(self, shard: str, after_id: str, block_ms: int, count: int = 512) -> tuple[str, list[tuple[str, int]]]:
        after = int(after_id.split("-", 1)[0])
        deadline = time.monotonic() + max(block_ms, 1) / 1000
        with self._lock:
            while True:
                rows = [r for r in self._feed.get(shard, ()) if r[0] > after][:count]
                left = deadline - time.monotonic()
                if rows or left <= 0:
                    break
                self._lock.wait(left)
        last = f"{rows[-1][0]}-0" if rows else after_id
        return last, [(gid, v) for _, gid, v in rows]

    def lease_name(self, kind: str, ident: str) -> str:
        return f"lease:{kind}:{ident}"

    def lease_acquire(self, name: str, member: str, limit: int, now_ms: int, ttl_ms: int) -> bool:
        with self._lock:
            held = self._leases[name]
            for m in [m for m, until in held.items() if until <= now_ms]:
                del held[m]
            if member not in held and len(held) >= limit:
                return False
            held[member] = now_ms + ttl_ms
            return True

    def lease_renew(self, held: list[tuple[str, str]], now_ms: int, ttl_ms: int) -> None:
        with self._lock:
            for name, member in held:
                if member in self._leases.get(name, {}):
                    self._leases[name][member] = now_ms + ttl_ms

    def lease_release_many(self, held: list[tuple[str, str]]) -> None:
        with self._lock:
            for name, member in held:
                self._leases.get(name, {}).pop(member, None)
                if not self._leases.get(name, True):
                    del self._leases[name]

    def snapshot_put(self, game_id: str, version: int, blob: bytes) -> None:
        with self._lock:
            self._snapshots[game_id][version] = bytes(blob)

    def snapshot_get(self, game_id: str, at_most: int | None = None) -> tuple[int, bytes] | None:
        with self._lock:
            held = self._snapshots.get(game_id, {})
            best = max((v for v in held if at_most is None or v <= at_most), default=None)
            return (best, held[best]) if best is not None else None

    def report_get(self, game_id: str) -> bytes | None:
        with self._lock:
            return self._reports.get(game_id)

    def report_put(self, game_id: str, blob: bytes) -> bool:
        with self._lock:
            if game_id not in self._compact and not self._streams.get(game_id):
                return False
            self._reports[game_id] = bytes(blob)
            return True

    def snapshot_drop(self, game_id: str) -> int:
        with self._lock:
            return len(self._snapshots.pop(game_id, {}))

    def idem_get(self, game_id: str, key: str) -> bytes | None:
        with self._lock:
            prior = self._idem.get((game_id, key))
            return prior[0] if prior and prior[1] > time.time() else None

    def token_get(self, game_id: str, token_hash: str) -> bytes | None:
        with self._lock:
            return self._tokens.get(game_id, {}).get(token_hash)

    def meta_put(self, game_id: str, name: str, value: bytes | None) -> None:
        with self._lock:
            if value is None:
                self._tokens.get(game_id, {}).pop(META + name, None)
            else:
                self._tokens[game_id][META + name] = bytes(value)

    def apikey_create(self, key_id: str, record: bytes, *, cap: int, entry: bytes, keep: int) -> bool:
        with self._lock:
            if key_id in self._apikeys or (cap > 0 and len(self._apikeys) >= cap):
                return False
            self._apikeys[key_id] = bytes(record)
            versioned.push(self._apikey_logs.setdefault(key_id, []), entry, keep)
            return True

    def apikey_change(self, key_id: str, expect: int, record: bytes, entry: bytes, keep: int) -> versioned.Changed:
        with self._lock:
            status = versioned.check(self._apikeys.get(key_id), expect)
            if status == versioned.OK:
                self._apikeys[key_id] = bytes(record)
                versioned.push(self._apikey_logs.setdefault(key_id, []), entry, keep)
            return versioned.Changed(status, self._apikeys.get(key_id))

    def apikey_log(self, key_id: str, limit: int) -> list[bytes]:
        with self._lock:
            return list(self._apikey_logs.get(key_id, [])[:max(0, limit)])

    def apikey_get(self, key_id: str) -> bytes | None:
        with self._lock:
            return self._apikeys.get(key_id)

    def apikey_all(self) -> dict[str, bytes]:
        with self._lock:
            return dict(self._apikeys)

    def key_game_add(self, key_id: str, game_id: str, at_ms: int, cap: int) -> None:
        with self._lock:
            games = self._key_games[key_id]
            games[game_id] = at_ms
            if len(games) > cap:  # the oldest go (ties: the greatest id, as Redis orders them)
                for _, gid in sorted((at, gid) for gid, at in games.items())[:len(games) - cap]:
                    del games[gid]

    def key_games(self, key_id: str, before: tuple[int, str] | None, limit: int) -> list[tuple[int, str]]:
        with self._lock:
            rows = sorted((-at, gid) for gid, at in self._key_games.get(key_id, {}).items())
        key = (-before[0], before[1]) if before else None
        return [(-at, gid) for at, gid in rows if key is None or (at, gid) > key][:limit]

    def key_game_drop(self, key_id: str, game_id: str) -> None:
        with self._lock:
            self._key_games.get(key_id, {}).pop(game_id, None)

    def lobby(self) -> dict[str, bytes]:
        with self._lock:
            return dict(self._lobby)

    def lobby_page(self, status: str | None, variant: str | None, before: tuple[int, str] | None,
                   limit: int) -> list[bytes]:
        with self._lock:
            rows = sorted((-at, gid) for gid, (st, var, at) in self._listed.items()
                          if status in (None, st) and variant in (None, var))
            key = (-before[0], before[1]) if before else None
            return [self._lobby[gid] for at, gid in rows if key is None or (at, gid) > key][:limit]

    def index_lobby(self) -> int:
        """Nothing to do: this store has indexed every listing since its first append."""
        return 0

    def expire_game(self, game_id: str, expected_version: int, variant: str) -> bool:
        with self._lock:
            stream = self._streams.get(game_id)
            if not stream or len(stream) != expected_version:
                return False
            for table in (self._streams, self._tokens, self._lobby, self._listed):
                table.pop(game_id, None)
            return True

    def schedule(self, followup: FollowUp) -> None:
        with self._lock:
            shard = shard_of(followup.payload["game"])
            self._due[shard].setdefault(followup.job_id, followup.due_at)
            self._payloads[shard].setdefault(followup.job_id, to_json(followup.payload))
            self._wakes.add(shard)
            self._lock.notify_all()

    def claim_due(self, shard: str, now: int, lease_ms: int, limit: int = 100) -> list[Claimed]:
        with self._lock:
            due = sorted((t, j) for j, t in self._due[shard].items() if t <= now)[:limit]
            out = []
            for _, job_id in due:
                del self._due[shard][job_id]
                self._inflight[shard][job_id] = now + lease_ms
                out.append(Claimed(job_id, orjson.loads(self._payloads[shard].get(job_id, b"{}"))))
            return out

    def next_due(self, shard: str) -> int | None:
        with self._lock:
            return min(self._due[shard].values(), default=None)

    def finish_due(self, shard: str, job_id: str) -> None:
        with self._lock:
            self._inflight[shard].pop(job_id, None)
            if job_id not in self._due[shard]:  # (re-added while it ran: it keeps its payload)
                self._payloads[shard].pop(job_id, None)

    def extend_due(self, shard: str, job_ids: Sequence[str], until: int) -> None:
        with self._lock:
            for j in job_ids:
                if j in self._inflight[shard]:
                    self._inflight[shard][j] = until

    def recover_expired(self, shard: str, now: int) -> list[str]:
        with self._lock:
            expired = [j for j, t in self._inflight[shard].items() if t <= now]
            for j in expired:
                del self._inflight[shard][j]
                self._due[shard][j] = now
            return expired

    def plan_next(self, shard: str, latest: int, ttl_ms: int) -> int | None:
        with self._lock:
            first = min(self._due[shard].values(), default=None)
            self._wake_at[shard] = (latest if first is None else min(first, latest), time.time() + ttl_ms / 1000)
            return first

    def wait_wake(self, shard: str, timeout_s: float) -> bool:
        deadline = time.monotonic() + max(timeout_s, 0)
        with self._lock:
            while shard not in self._wakes:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(left)
            self._wakes.discard(shard)
            return True


if TYPE_CHECKING:  # mypy checks that this backend implements every port
    from service.eventstore.ports import EventStore

    _backend: type[EventStore] = MemoryEventStore
