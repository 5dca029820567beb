"""The in-memory twin of the Redis event store, for fast tests. Same contract, one process."""
from __future__ import annotations

import threading
import time
from collections import defaultdict

import orjson

from service.eventstore.codec import Stored, decode, decode_stored, to_json
from service.eventstore.contract import AppendRequest, AppendResult, Claimed, FollowUp, shard_of
from service.rules.model import Event


class MemoryEventStore:
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

    def append(self, req: AppendRequest) -> AppendResult:
        # Encode everything before touching any state, as the Redis store does before its
        # script runs: an unencodable event must leave nothing behind (all or nothing).
        encoded = req.encoded()
        payloads = [to_json(f.payload) for f in req.followups]
        with self._lock:
            stream = self._streams[req.game_id]
            if req.idem:
                prior = self._idem.get((req.game_id, req.idem.key))
                if prior and prior[1] > time.time():
                    return AppendResult("duplicate", len(stream), prior[0])
            if len(stream) != req.expected_version:
                return AppendResult("conflict", len(stream))
            stream.extend(encoded)
            shard = shard_of(req.game_id)
            for f, payload in zip(req.followups, payloads):
                if f.job_id not in self._due[shard]:
                    self._due[shard][f.job_id] = f.due_at
                    self._payloads[shard][f.job_id] = payload
            self._tokens[req.game_id].update(req.tokens)
            for h in req.revoke:
                self._tokens[req.game_id].pop(h, None)
            if req.idem:
                self._idem[(req.game_id, req.idem.key)] = (req.idem.record, time.time() + req.idem.ttl_s)
            if req.lobby:
                self._lobby[req.game_id] = req.lobby
            self._lock.notify_all()
            return AppendResult("ok", len(stream))

    def read(self, game_id: str, after: int = 0) -> list[Event]:
        with self._lock:
            rows = list(self._streams.get(game_id, ())[after:])
        return [decode(after + i + 1, raw) for i, raw in enumerate(rows)]

    def read_stored(self, game_id: str, after: int = 0, count: int | None = None) -> list[Stored]:
        with self._lock:
            rows = list(self._streams.get(game_id, ())[after:])
        if count is not None:
            rows = rows[:count]
        return [decode_stored(after + i + 1, raw) for i, raw in enumerate(rows)]

    def version(self, game_id: str) -> int:
        with self._lock:
            return len(self._streams.get(game_id, ()))

    def wait(self, game_id: str, after: int, timeout_s: float) -> bool:
        deadline = time.monotonic() + max(timeout_s, 0)
        with self._lock:
            while len(self._streams.get(game_id, ())) <= after:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(left)
            return True

    def idem_get(self, game_id: str, key: str) -> bytes | None:
        with self._lock:
            prior = self._idem.get((game_id, key))
            return prior[0] if prior and prior[1] > time.time() else None

    def token_get(self, game_id: str, token_hash: str) -> bytes | None:
        with self._lock:
            return self._tokens.get(game_id, {}).get(token_hash)

    def lobby(self) -> dict[str, bytes]:
        with self._lock:
            return dict(self._lobby)

    def schedule(self, followup: FollowUp) -> None:
        with self._lock:
            shard = shard_of(followup.payload["game"])
            self._due[shard].setdefault(followup.job_id, followup.due_at)
            self._payloads[shard].setdefault(followup.job_id, to_json(followup.payload))

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
            self._payloads[shard].pop(job_id, None)

    def recover_expired(self, shard: str, now: int) -> list[str]:
        with self._lock:
            expired = [j for j, t in self._inflight[shard].items() if t <= now]
            for j in expired:
                del self._inflight[shard][j]
                self._due[shard][j] = now
            return expired
