"""The bot records port (service/eventstore/ports/bot_records.py) for the Redis store and the
in-memory twin. On Redis every key of it shares one hash tag, ``{<prefix>:bots}`` (few, small keys),
so the capped save is one script on one slot."""
from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

_SAVE = """
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 0 then
  if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
  redis.call('SADD', KEYS[1], ARGV[1])
end
redis.call('SET', KEYS[2], ARGV[2])
return 1
"""
_DROP = """
if redis.call('SREM', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('DEL', KEYS[2], KEYS[3])
return 1
"""


def _ints(raw: Mapping[Any, Any]) -> dict[str, int]:
    return {(k.decode() if isinstance(k, bytes) else str(k)): int(v) for k, v in raw.items()}


class RedisBotRecords:
    """``BotRecords`` on a Redis client ``self.r`` under the key prefix ``self.keys.prefix``."""

    r: Any
    keys: Any
    _bot_scripts: tuple[Any, Any] | None = None

    def _bk(self, kind: str, ident: str) -> str:
        return "{" + f"{self.keys.prefix}:bots" + "}" + f":{kind}:{ident}"

    def _scripts(self) -> tuple[Any, Any]:
        if self._bot_scripts is None:
            self._bot_scripts = (self.r.register_script(_SAVE), self.r.register_script(_DROP))
        return self._bot_scripts

    def bot_save(self, owner: str, bot_id: str, record: bytes, cap: int) -> bool:
        save, _ = self._scripts()
        return bool(save(keys=[self._bk("owner", owner), self._bk("bot", bot_id)], args=[bot_id, record, cap]))

    def bot_load(self, bot_id: str) -> bytes | None:
        raw = self.r.get(self._bk("bot", bot_id))
        return bytes(raw) if raw is not None else None

    def bot_ids(self, owner: str) -> list[str]:
        return sorted(m.decode() if isinstance(m, bytes) else str(m) for m in self.r.smembers(self._bk("owner", owner)))

    def bot_drop(self, owner: str, bot_id: str) -> bool:
        _, drop = self._scripts()
        return bool(drop(keys=[self._bk("owner", owner), self._bk("bot", bot_id), self._bk("n", bot_id)],
                         args=[bot_id]))

    def bot_count(self, bot_id: str, deltas: Mapping[str, int], reset: Mapping[str, int] | None = None) -> dict[str, int]:
        key = self._bk("n", bot_id)
        pipe = self.r.pipeline(transaction=True)
        for name, delta in deltas.items():
            pipe.hincrby(key, name, delta)
        if reset:
            pipe.hset(key, mapping=dict(reset))
        pipe.hgetall(key)
        return _ints(pipe.execute()[-1])

    def bot_counts(self, bot_id: str) -> dict[str, int]:
        return _ints(self.r.hgetall(self._bk("n", bot_id)))


class MemoryBotRecords:
    """``BotRecords`` in memory (the in-memory store's twin)."""

    _bot_lock = threading.Lock()
    _bots: dict[str, bytes]
    _bot_owners: defaultdict[str, set[str]]
    _bot_counts: defaultdict[str, dict[str, int]]

    def _bot_state(self) -> None:
        if not hasattr(self, "_bots"):
            self._bots, self._bot_owners, self._bot_counts = {}, defaultdict(set), defaultdict(dict)

    def bot_save(self, owner: str, bot_id: str, record: bytes, cap: int) -> bool:
        with self._bot_lock:
            self._bot_state()
            mine = self._bot_owners[owner]
            if bot_id not in mine and len(mine) >= cap:
                return False
            mine.add(bot_id)
            self._bots[bot_id] = bytes(record)
            return True

    def bot_load(self, bot_id: str) -> bytes | None:
        with self._bot_lock:
            self._bot_state()
            return self._bots.get(bot_id)

    def bot_ids(self, owner: str) -> list[str]:
        with self._bot_lock:
            self._bot_state()
            return sorted(self._bot_owners.get(owner, ()))

    def bot_drop(self, owner: str, bot_id: str) -> bool:
        with self._bot_lock:
            self._bot_state()
            mine = self._bot_owners.get(owner, set())
            if bot_id not in mine:
                return False
            mine.discard(bot_id)
            self._bots.pop(bot_id, None)
            self._bot_counts.pop(bot_id, None)
            return True

    def bot_count(self, bot_id: str, deltas: Mapping[str, int], reset: Mapping[str, int] | None = None) -> dict[str, int]:
        with self._bot_lock:
            self._bot_state()
            counts = self._bot_counts[bot_id]
            for name, delta in deltas.items():
                counts[name] = counts.get(name, 0) + delta
            counts.update(reset or {})
            return dict(counts)

    def bot_counts(self, bot_id: str) -> dict[str, int]:
        with self._bot_lock:
            self._bot_state()
            return dict(self._bot_counts.get(bot_id, {}))
