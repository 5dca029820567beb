-- Take one slot of a bounded set of leases (open streams of a token or an address).
-- KEYS: 1 the lease zset (member -> expiry ms)
-- ARGV: 1 member, 2 limit, 3 now (ms), 4 ttl (ms)
-- Returns 1 when the member holds a slot (new or renewed), 0 when the set is full.
local now = tonumber(ARGV[3])
local ttl = tonumber(ARGV[4])
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", now)
if not redis.call("ZSCORE", KEYS[1], ARGV[1]) then
  if redis.call("ZCARD", KEYS[1]) >= tonumber(ARGV[2]) then
    return 0
  end
end
redis.call("ZADD", KEYS[1], now + ttl, ARGV[1])
redis.call("PEXPIRE", KEYS[1], ttl)
return 1
