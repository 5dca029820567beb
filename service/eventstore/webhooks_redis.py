"""The webhooks port on Redis (mixed into RedisEventStore). Every key of one owner (an API key id)
carries the owner's own hash tag ``{<prefix>:wh:<owner>}``: one slot, so each script below runs on
a Redis Cluster too.

- ``…:hooks``   hash: endpoint id -> record
- ``…:health:<hook id>`` hash: health counters of one endpoint
- ``…:audit:<hook id>`` list: its audit log (credential changes), newest first, capped
- ``…:dlv``     hash: delivery id -> record
- ``…:log``     sorted set: delivery id by position (``…:seq`` counts positions)
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.eventstore import versioned

_CREATE = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local cap = tonumber(ARGV[3])
if cap > 0 and redis.call('HLEN', KEYS[1]) >= cap then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('LPUSH', KEYS[2], ARGV[4])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[5]) - 1)
return 1
"""
_CHANGE = versioned.change_lua(
    get="redis.call('HGET', KEYS[2], ARGV[6])",
    put="""redis.call('HSET', KEYS[2], ARGV[6], ARGV[2])
  for i = 7, #ARGV, 2 do
    if ARGV[i + 1] == '0' then redis.call('HDEL', KEYS[3], ARGV[i]) else redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1]) end
  end""",
    drop="redis.call('HDEL', KEYS[2], ARGV[6])\n  redis.call('DEL', KEYS[3])")
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

    def hook_create(self, owner: str, hook_id: str, record: bytes, *, cap: int, entry: bytes, keep: int) -> bool:
        keys = [self._wh(owner, "hooks"), self._wh(owner, f"audit:{hook_id}")]
        return bool(self._wh_script("create", _CREATE)(keys=keys, args=[hook_id, record, cap, entry, max(1, keep)]))

    def hook_change(self, owner: str, hook_id: str, expect: int, record: bytes | None, entry: bytes, keep: int,
                    health: Mapping[str, int] | None = None) -> versioned.Changed:
        keys = [self._wh(owner, f"audit:{hook_id}"), self._wh(owner, "hooks"), self._wh(owner, f"health:{hook_id}")]
        args = versioned.change_args(expect, record, entry, keep, hook_id, *versioned.health_args(health))
        return versioned.changed(self._wh_script("change", _CHANGE)(keys=keys, args=args))

    def hook_log(self, owner: str, hook_id: str, limit: int) -> list[bytes]:
        if limit <= 0:
            return []
        return [_b(x) for x in self.r.lrange(self._wh(owner, f"audit:{hook_id}"), 0, limit - 1)]

    def hook_get(self, owner: str, hook_id: str) -> bytes | None:
        raw = self.r.hget(self._wh(owner, "hooks"), hook_id)
        return _b(raw) if raw is not None else None

    def hook_all(self, owner: str) -> dict[str, bytes]:
        return {_s(k): _b(v) for k, v in self.r.hgetall(self._wh(owner, "hooks")).items()}

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
