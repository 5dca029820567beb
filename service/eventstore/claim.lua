-- Move due follow-ups into the in-flight set under a lease, so one dispatcher owns each.
-- KEYS: 1 due zset, 2 in-flight zset, 3 payload hash
-- ARGV: 1 now (ms), 2 lease (ms), 3 limit
local ids = redis.call("ZRANGEBYSCORE", KEYS[1], "-inf", ARGV[1], "LIMIT", 0, tonumber(ARGV[3]))
local out = {}
local lease_until = tonumber(ARGV[1]) + tonumber(ARGV[2])
for _, id in ipairs(ids) do
  redis.call("ZREM", KEYS[1], id)
  redis.call("ZADD", KEYS[2], lease_until, id)
  table.insert(out, id)
  table.insert(out, redis.call("HGET", KEYS[3], id) or "{}")
end
return out
