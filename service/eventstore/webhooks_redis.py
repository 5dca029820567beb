"""The webhooks port on Redis (mixed into RedisEventStore). Every key of one owner (an API key id)
carries the owner's own hash tag ``{<prefix>:wh:<owner>}``: one slot, so each script below runs on
a Redis Cluster too.

- ``…:hooks``   hash: endpoint id -> record
- ``…:health:<hook id>`` hash: health counters of one endpoint
- ``…:dlv``     hash: delivery id -> record
- ``…:log``     sorted set: delivery id by position (``…:seq`` counts positions)
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_PUT_NEW = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
local cap = tonumber(ARGV[3])
if cap > 0 and redis.call('HLEN', KEYS[1]) >= cap then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""
_PUT_OLD = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""
_LOG_ADD = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
local pos = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], pos, ARGV[1])
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[3])
if over > 0 then
  local old = redis.call('ZRANGE', KEYS[2], 0, over - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, over - 1)
  redis.call('HDEL', KEYS[1], unpack(old))
end
return pos
"""


def _b(value: Any) -> bytes:
    return value if isinstance(value, bytes) else str(value).encode()


def _s(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RedisWebhooks:
    """Needs ``self.r`` (the client) and ``self.keys.prefix`` (RedisEventStore's)."""

    r: Any
    keys: Any

    def _wh(self, owner: str, part: str) -> str:
        return "{" + f"{self.keys.prefix}:wh:{owner}" + "}:" + part

    def _wh_script(self, name: str, source: str) -> Any:
        cache = self.__dict__.setdefault("_wh_scripts", {})
        if name not in cache:
            cache[name] = self.r.register_script(source)
        return cache[name]

    def hook_put(self, owner: str, hook_id: str, record: bytes, *, new: bool, cap: int = 0) -> bool:
        if new:
            return bool(self._wh_script("put_new", _PUT_NEW)(keys=[self._wh(owner, "hooks")],
                                                             args=[hook_id, record, cap]))
        return bool(self._wh_script("put_old", _PUT_OLD)(keys=[self._wh(owner, "hooks")], args=[hook_id, record]))

    def hook_get(self, owner: str, hook_id: str) -> bytes | None:
        raw = self.r.hget(self._wh(owner, "hooks"), hook_id)
        return _b(raw) if raw is not None else None

    def hook_all(self, owner: str) -> dict[str, bytes]:
        return {_s(k): _b(v) for k, v in self.r.hgetall(self._wh(owner, "hooks")).items()}

    def hook_delete(self, owner: str, hook_id: str) -> bool:
        pipe = self.r.pipeline(transaction=True)
        pipe.hdel(self._wh(owner, "hooks"), hook_id)
        pipe.delete(self._wh(owner, f"health:{hook_id}"))
        return bool(pipe.execute()[0])

    def hook_health(self, owner: str, hook_id: str) -> dict[str, int]:
        return {_s(k): int(v) for k, v in self.r.hgetall(self._wh(owner, f"health:{hook_id}")).items()}

    def hook_health_add(self, owner: str, hook_id: str, name: str, by: int) -> int:
        return int(self.r.hincrby(self._wh(owner, f"health:{hook_id}"), name, by))

    def hook_health_set(self, owner: str, hook_id: str, values: Mapping[str, int]) -> None:
        key = self._wh(owner, f"health:{hook_id}")
        pipe = self.r.pipeline(transaction=True)
        gone = [k for k, v in values.items() if not v]
        kept = {k: int(v) for k, v in values.items() if v}
        if gone:
            pipe.hdel(key, *gone)
        if kept:
            pipe.hset(key, mapping=kept)
        pipe.execute()

    def delivery_add(self, owner: str, delivery_id: str, record: bytes, *, keep: int) -> int:
        keys = [self._wh(owner, "dlv"), self._wh(owner, "log"), self._wh(owner, "seq")]
        return int(self._wh_script("log_add", _LOG_ADD)(keys=keys, args=[delivery_id, record, max(1, keep)]))

    def delivery_get(self, owner: str, delivery_id: str) -> bytes | None:
        raw = self.r.hget(self._wh(owner, "dlv"), delivery_id)
        return _b(raw) if raw is not None else None

    def delivery_put(self, owner: str, delivery_id: str, record: bytes) -> bool:
        return bool(self._wh_script("put_old", _PUT_OLD)(keys=[self._wh(owner, "dlv")], args=[delivery_id, record]))

    def delivery_page(self, owner: str, before: int | None, limit: int) -> list[tuple[int, bytes]]:
        top = f"({before}" if before is not None else "+inf"
        pairs = self.r.zrevrangebyscore(self._wh(owner, "log"), top, "-inf", start=0, num=max(1, limit),
                                        withscores=True)
        if not pairs:
            return []
        records = self.r.hmget(self._wh(owner, "dlv"), [_s(m) for m, _ in pairs])
        return [(int(score), _b(rec)) for (_, score), rec in zip(pairs, records, strict=True) if rec is not None]
