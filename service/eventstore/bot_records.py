"""The bot records port (service/eventstore/ports/bot_records.py) for the Redis store and the
in-memory twin. On Redis every key of it shares one hash tag, ``{<prefix>:bots}`` (few, small keys),
so the capped save is one script on one slot."""
from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from service.eventstore import versioned

_CREATE = """
if redis.call('EXISTS', KEYS[2]) == 1 or redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])
redis.call('LPUSH', KEYS[3], ARGV[4])
redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[5]) - 1)
return 1
"""
_CHANGE = versioned.change_lua(
    get="redis.call('SISMEMBER', KEYS[2], ARGV[6]) == 1 and redis.call('GET', KEYS[3])",
    put="redis.call('SET', KEYS[3], ARGV[2])",
    drop="redis.call('SREM', KEYS[2], ARGV[6])\n  redis.call('DEL', KEYS[3], KEYS[4])")


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
            self._bot_scripts = (self.r.register_script(_CREATE), self.r.register_script(_CHANGE))
        return self._bot_scripts

    def _bot_log_key(self, owner: str, bot_id: str) -> str:
        return self._bk("log", f"{owner}:{bot_id}")

    def bot_create(self, owner: str, bot_id: str, record: bytes, cap: int, entry: bytes, keep: int) -> bool:
        create, _ = self._scripts()
        keys = [self._bk("owner", owner), self._bk("bot", bot_id), self._bot_log_key(owner, bot_id)]
        return bool(create(keys=keys, args=[bot_id, record, cap, entry, max(1, keep)]))

    def bot_change(self, owner: str, bot_id: str, expect: int, record: bytes | None, entry: bytes,
                   keep: int) -> versioned.Changed:
        _, change = self._scripts()
        keys = [self._bot_log_key(owner, bot_id), self._bk("owner", owner), self._bk("bot", bot_id),
                self._bk("n", bot_id)]
        return versioned.changed(change(keys=keys, args=versioned.change_args(expect, record, entry, keep, bot_id)))

    def bot_log(self, owner: str, bot_id: str, limit: int) -> list[bytes]:
        if limit <= 0:
            return []
        return [bytes(x) for x in self.r.lrange(self._bot_log_key(owner, bot_id), 0, limit - 1)]

    def bot_load(self, bot_id: str) -> bytes | None:
        raw = self.r.get(self._bk("bot", bot_id))
        return bytes(raw) if raw is not None else None

    def bot_ids(self, owner: str) -> list[str]:
        return sorted(m.decode() if isinstance(m, bytes) else str(m) for m in self.r.smembers(self._bk("owner", owner)))

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
    _bot_logs: dict[tuple[str, str], list[bytes]]  # (owner, bot id) -> its audit log, newest first

    def _bot_state(self) -> None:
        if not hasattr(self, "_bots"):
            self._bots, self._bot_owners, self._bot_counts = {}, defaultdict(set), defaultdict(dict)
            self._bot_logs = {}

    def bot_create(self, owner: str, bot_id: str, record: bytes, cap: int, entry: bytes, keep: int) -> bool:
        with self._bot_lock:
            self._bot_state()
            mine = self._bot_owners[owner]
            if bot_id in self._bots or (owner, bot_id) in self._bot_logs or len(mine) >= cap:
                return False
            mine.add(bot_id)
            self._bots[bot_id] = bytes(record)
            versioned.push(self._bot_logs.setdefault((owner, bot_id), []), entry, keep)
            return True

    def bot_change(self, owner: str, bot_id: str, expect: int, record: bytes | None, entry: bytes,
                   keep: int) -> versioned.Changed:
        with self._bot_lock:
            self._bot_state()
            mine = bot_id in self._bot_owners.get(owner, set())
            status = versioned.check(self._bots.get(bot_id) if mine else None, expect)
            if status != versioned.OK:
                return versioned.Changed(status, self._bots.get(bot_id) if mine else None)
            if record is None:
                self._bot_owners[owner].discard(bot_id)
                self._bots.pop(bot_id, None)
                self._bot_counts.pop(bot_id, None)
            else:
                self._bots[bot_id] = bytes(record)
            versioned.push(self._bot_logs.setdefault((owner, bot_id), []), entry, keep)
            return versioned.Changed(status, None if record is None else bytes(record))

    def bot_log(self, owner: str, bot_id: str, limit: int) -> list[bytes]:
        with self._bot_lock:
            self._bot_state()
            return list(self._bot_logs.get((owner, bot_id), [])[:max(0, limit)])

    def bot_load(self, bot_id: str) -> bytes | None:
        with self._bot_lock:
            self._bot_state()
            return self._bots.get(bot_id)

    def bot_ids(self, owner: str) -> list[str]:
        with self._bot_lock:
            self._bot_state()
            return sorted(self._bot_owners.get(owner, ()))

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
