-- Delete a game and everything of it (stream or compact form, tokens, snapshots, verify report,
-- idempotency records, lobby row and indexes), if it is still at the expected version (`meow archive --evict`).
-- KEYS: 1 stream, 2 compact form, 3 tokens, 4 snapshots, 5 idempotency index, 6 lobby hash,
--       7-14 the lobby indexes it may be in, 15 the verify report, 16.. the idempotency records
--       the index names
-- ARGV: 1 expected version, 2 game id
local version = 0
local last = redis.call("XREVRANGE", KEYS[1], "+", "-", "COUNT", 1)
if #last > 0 then
  version = tonumber(string.match(last[1][1], "^(%d+)"))
else
  version = tonumber(redis.call("HGET", KEYS[2], "v") or "0")
end
if version == 0 or version ~= tonumber(ARGV[1]) then
  return 0
end
for k = 1, 5 do
  redis.call("DEL", KEYS[k])
end
redis.call("HDEL", KEYS[6], ARGV[2])
for k = 7, 14 do
  redis.call("ZREM", KEYS[k], ARGV[2])
end
for k = 15, #KEYS do
  redis.call("DEL", KEYS[k])
end
return 1
