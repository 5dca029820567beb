"""The players and matchmaking ports (service/eventstore/ports/players.py, matchmaking.py) on each
backend: mixins of the in-memory store and of the Redis store. The one owner of their key names:
an owner's players of one variant share one hash slot ``{<prefix>:pl:<owner>:<variant>}``
(records, leaderboard, the games counted), quick play's table is ``{<prefix>:qp:<scope>:<variant>}``."""
from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Mapping
from importlib import resources
from typing import Any


def _script(name: str) -> str:
    return resources.files("service.eventstore").joinpath(name).read_text()


def players_tag(prefix: str, owner: str, variant: str) -> str:
    return "{" + f"{prefix}:pl:{owner}:{variant}" + "}"


def quick_key(prefix: str, scope: str, variant: str) -> str:
    return "{" + f"{prefix}:qp:{scope}:{variant}" + "}"


def _page(board: Mapping[str, float], offset: int, limit: int) -> list[str]:
    """Redis' ZREVRANGE order: the best score first, equal scores by ref, descending."""
    return [ref for ref, _ in sorted(board.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)][offset:offset + limit]


class MemoryPlayersMixin:
    """Players and matchmaking in one process (the in-memory store's part)."""

    _pl_lock = threading.Lock()

    def _pl(self) -> dict[str, Any]:
        state = self.__dict__.get("_pl_state")
        if state is None:
            state = self.__dict__["_pl_state"] = {
                "records": defaultdict(dict), "board": defaultdict(dict), "counted": defaultdict(dict), "quick": {}}
        return state

    def player_get(self, owner: str, variant: str, refs: list[str]) -> list[bytes | None]:
        with self._pl_lock:
            recs = self._pl()["records"][(owner, variant)]
            return [recs.get(r) for r in refs]

    def player_page(self, owner: str, variant: str, offset: int, limit: int) -> list[tuple[str, bytes]]:
        with self._pl_lock:
            st = self._pl()
            recs, board = st["records"][(owner, variant)], st["board"][(owner, variant)]
            return [(ref, recs[ref]) for ref in _page(board, offset, limit)]

    def player_count(self, owner: str, variant: str) -> int:
        with self._pl_lock:
            return len(self._pl()["board"][(owner, variant)])

    def player_record(self, owner: str, variant: str, game_id: str, expected: Mapping[str, bytes | None],
                      new: Mapping[str, tuple[bytes, float]], at: int, keep_games: int) -> str:
        with self._pl_lock:
            st = self._pl()
            k = (owner, variant)
            recs, board, counted = st["records"][k], st["board"][k], st["counted"][k]
            if game_id in counted:
                return "duplicate"
            if any(recs.get(ref) != exp for ref, exp in expected.items()):
                return "conflict"
            for ref, (rec, score) in new.items():
                recs[ref], board[ref] = rec, score
            counted[game_id] = at
            for gid, _ in sorted(counted.items(), key=lambda kv: (kv[1], kv[0]))[:max(0, len(counted) - keep_games)]:
                del counted[gid]
            return "ok"

    def quick_get(self, scope: str, variant: str) -> str | None:
        with self._pl_lock:
            found = self._pl()["quick"].get((scope, variant))
            return found[0] if found and found[1] > time.time() else None

    def quick_swap(self, scope: str, variant: str, old: str | None, new: str, ttl_ms: int) -> str:
        with self._pl_lock:
            quick = self._pl()["quick"]
            found = quick.get((scope, variant))
            cur = found[0] if found and found[1] > time.time() else None
            if cur == old:
                quick[(scope, variant)] = (new, time.time() + ttl_ms / 1000)
                return new
            return cur or ""


class RedisPlayersMixin:
    """Players and matchmaking in Redis (the Redis store's part): ``self.r`` and ``self.keys``."""

    r: Any
    keys: Any

    def _pl_script(self, name: str) -> Any:
        script = self.__dict__.get(f"_pl_{name}")
        if script is None:
            script = self.__dict__[f"_pl_{name}"] = self.r.register_script(_script(f"{name}.lua"))
        return script

    def _pl_keys(self, owner: str, variant: str) -> tuple[str, str, str]:
        tag = players_tag(self.keys.prefix, owner, variant)
        return f"{tag}:rec", f"{tag}:board", f"{tag}:counted"

    def player_get(self, owner: str, variant: str, refs: list[str]) -> list[bytes | None]:
        if not refs:
            return []
        return list(self.r.hmget(self._pl_keys(owner, variant)[0], refs))

    def player_page(self, owner: str, variant: str, offset: int, limit: int) -> list[tuple[str, bytes]]:
        recs, board, _ = self._pl_keys(owner, variant)
        refs = [_s(x) for x in self.r.zrevrange(board, offset, offset + limit - 1)] if limit > 0 else []
        if not refs:
            return []
        return [(ref, rec) for ref, rec in zip(refs, self.r.hmget(recs, refs)) if rec is not None]

    def player_count(self, owner: str, variant: str) -> int:
        return int(self.r.zcard(self._pl_keys(owner, variant)[1]))

    def player_record(self, owner: str, variant: str, game_id: str, expected: Mapping[str, bytes | None],
                      new: Mapping[str, tuple[bytes, float]], at: int, keep_games: int) -> str:
        args: list[Any] = [game_id, at, keep_games, len(new)]
        for ref, (rec, score) in new.items():
            args += [ref, expected.get(ref) or b"", rec, repr(float(score))]
        return _s(self._pl_script("players")(keys=list(self._pl_keys(owner, variant)), args=args))

    def quick_get(self, scope: str, variant: str) -> str | None:
        got = self.r.get(quick_key(self.keys.prefix, scope, variant))
        return _s(got) if got else None

    def quick_swap(self, scope: str, variant: str, old: str | None, new: str, ttl_ms: int) -> str:
        return _s(self._pl_script("quick")(keys=[quick_key(self.keys.prefix, scope, variant)],
                                           args=[old or "", new, int(ttl_ms)]))


def _s(x: Any) -> str:
    return x.decode() if isinstance(x, bytes) else str(x)
