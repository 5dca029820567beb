-- Delete a never-started game and everything of it, if it is still at the expected version.
-- KEYS: 1 stream, 2 token hash, 3 lobby hash, 4-11 the lobby indexes it may be in
-- ARGV: 1 expected version, 2 game id
local last = redis.call("XREVRANGE", KEYS[1], "+", "-", "COUNT", 1)
local version = 0
if #last > 0 then version = tonumber(string.match(last[1][1], "^(%d+)")) end
if version ~= tonumber(ARGV[1]) or version == 0 then
  return 0
end
redis.call("DEL", KEYS[1], KEYS[2])
redis.call("HDEL", KEYS[3], ARGV[2])
for k = 4, #KEYS do
  redis.call("ZREM", KEYS[k], ARGV[2])
end
return 1
