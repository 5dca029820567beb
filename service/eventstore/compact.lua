-- Replace a game's stream by its compact form (service/eventstore/compact.py), if the stream is
-- still at the expected version; its idempotency records go with it. Idempotent.
-- KEYS: 1 stream, 2 compact form, 3 idempotency index, 4.. the idempotency records it names
-- ARGV: 1 expected version, 2 compact form, 3 chain head
if redis.call("EXISTS", KEYS[2]) == 1 then
  return "already"
end
local last = redis.call("XREVRANGE", KEYS[1], "+", "-", "COUNT", 1)
if #last == 0 then
  return "missing"
end
local version = tonumber(string.match(last[1][1], "^(%d+)"))
if version ~= tonumber(ARGV[1]) then
  return "conflict"
end
redis.call("HSET", KEYS[2], "v", version, "h", ARGV[3], "b", ARGV[2])
redis.call("DEL", KEYS[1])
for k = 3, #KEYS do
  redis.call("DEL", KEYS[k])
end
return "compacted"
