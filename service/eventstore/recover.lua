-- Put in-flight follow-ups whose lease ran out back into the due set (due now).
-- KEYS: 1 due zset, 2 in-flight zset.  ARGV: 1 now (ms)
local ids = redis.call("ZRANGEBYSCORE", KEYS[2], "-inf", ARGV[1])
for _, id in ipairs(ids) do
  redis.call("ZREM", KEYS[2], id)
  redis.call("ZADD", KEYS[1], ARGV[1], id)
end
return ids
