-- The shard's earliest due time, and the dispatcher's next look at the shard recorded in the same
-- step: the earlier of it and ARGV[1] (ms), kept ARGV[2] ms. append.lua pushes a wake-up only for a
-- follow-up due before that look (issue 39).
-- KEYS: 1 due zset, 2 wake_at string   ARGV: 1 latest look (ms), 2 ttl (ms)
local first = redis.call("ZRANGE", KEYS[1], 0, 0, "WITHSCORES")
local at = tonumber(ARGV[1])
local due = nil
if #first > 0 then
  due = tonumber(first[2])
  if due < at then at = due end
end
redis.call("SET", KEYS[2], string.format("%d", at), "PX", ARGV[2])
if due == nil then return false end
return string.format("%d", due)
