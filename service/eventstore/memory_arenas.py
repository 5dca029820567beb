"""The arenas' store in memory (the twin of ``RedisArenas``, service/eventstore/arenas.py): for unit
tests and benches; one lock makes each call atomic, as the Redis store's transactions do."""
from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import orjson

from service.eventstore.arenas import RUNNING
from service.eventstore.ports.arenas import Score


class MemoryArenas:
    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._rec: dict[str, dict[str, str]] = {}
        self._results: dict[str, dict[int, bytes]] = {}
        self._claims: dict[str, dict[int, int]] = {}
        self._of_key: dict[str, dict[str, int]] = {}
        self._running: dict[str, set[str]] = {}
        self._boards: dict[str, dict[str, bytes]] = {}

    def create(self, arena_id: str, key_id: str, fields: Mapping[str, str], now: int, cap: int,
               keep_per_key: int) -> bool:
        with self._lock:
            running = self._running.setdefault(key_id, set())
            if cap > 0 and len(running) >= cap:
                return False
            running.add(arena_id)
            self._rec[arena_id] = {**{k: str(v) for k, v in fields.items()}, "key": key_id, "status": RUNNING,
                                   "next": "0", "done": "0", "created_at": str(now), "version": "1"}
            listed = self._of_key.setdefault(key_id, {})
            listed[arena_id] = now
            if keep_per_key > 0:
                order = sorted(listed, key=lambda a: (listed[a], a))
                for old in order[: max(0, len(order) - keep_per_key)]:
                    if self.status(old) != RUNNING:
                        del listed[old]
                        for part in (self._rec, self._results, self._claims):
                            part.pop(old, None)
            return True

    def get(self, arena_id: str) -> dict[str, str] | None:
        with self._lock:
            rec = self._rec.get(arena_id)
            return dict(rec) if rec else None

    def status(self, arena_id: str) -> str | None:
        with self._lock:
            return self._rec.get(arena_id, {}).get("status")

    def of_key(self, key_id: str, limit: int) -> list[str]:
        with self._lock:
            listed = self._of_key.get(key_id, {})
            return sorted(listed, key=lambda a: (listed[a], a), reverse=True)[: max(1, limit)]

    def claim(self, arena_id: str, total: int, now: int) -> int | None:
        with self._lock:
            rec = self._rec.setdefault(arena_id, {})
            index = int(rec.get("next", "0"))
            rec["next"] = str(index + 1)
            if index >= total:
                return None
            self._claims.setdefault(arena_id, {})[index] = now
            return index

    def stale_claim(self, arena_id: str, older_than: int, now: int) -> int | None:
        with self._lock:
            claims, done = self._claims.get(arena_id, {}), self._results.get(arena_id, {})
            for index in sorted(claims):
                if index not in done and claims[index] < older_than:
                    claims[index] = now
                    return index
            return None

    def renew(self, arena_id: str, index: int, now: int) -> None:
        with self._lock:
            self._claims.setdefault(arena_id, {})[index] = now

    def oldest_open_claim(self, arena_id: str) -> int | None:
        with self._lock:
            done = self._results.get(arena_id, {})
            open_at = [at for i, at in self._claims.get(arena_id, {}).items() if i not in done]
            return min(open_at) if open_at else None

    def record(self, arena_id: str, index: int, result: Mapping[str, Any]) -> int:
        with self._lock:
            rec = self._rec.setdefault(arena_id, {})
            results = self._results.setdefault(arena_id, {})
            if index not in results:
                results[index] = orjson.dumps(result)
                rec["done"] = str(int(rec.get("done", "0")) + 1)
            return int(rec.get("done", "0"))

    def results(self, arena_id: str) -> dict[int, dict[str, Any]]:
        with self._lock:
            return {i: orjson.loads(raw) for i, raw in self._results.get(arena_id, {}).items()}

    def end(self, arena_id: str, status: str, now: int, summary: Mapping[str, Any] | None = None) -> bool:
        with self._lock:
            rec = self._rec.get(arena_id)
            if rec is None or rec.get("status") != RUNNING or "ended_at" in rec:
                return False
            rec.update(status=status, ended_at=str(now))
            if summary is not None:
                rec["summary"] = orjson.dumps(summary).decode()
            rec["version"] = str(int(rec.get("version", "0")) + 1)
            self._running.get(rec.get("key", ""), set()).discard(arena_id)
            return True

    def leaderboard_page(self, variant: str, offset: int, limit: int,
                         score: Score) -> tuple[list[tuple[str, dict[str, Any]]], int]:
        with self._lock:
            board = self._boards.get(variant, {})
            rows = {n: orjson.loads(raw) for n, raw in board.items()}
            order = sorted(rows, key=lambda n: (-score(rows[n]), n))
            return [(n, rows[n]) for n in order[offset: offset + max(1, limit)]], len(order)

    def update_leaderboard(self, variant: str, identities: Sequence[str],
                           change: Callable[[dict[str, dict[str, Any]]], dict[str, dict[str, Any]]],
                           score: Score) -> None:
        with self._lock:
            board = self._boards.setdefault(variant, {})
            now = {n: orjson.loads(board[n]) for n in dict.fromkeys(identities) if n in board}
            for n, row in change(now).items():
                board[n] = orjson.dumps(row)

    def forget(self, identity: str, variants: Sequence[str]) -> None:
        with self._lock:
            for variant in variants:
                self._boards.get(variant, {}).pop(identity, None)
