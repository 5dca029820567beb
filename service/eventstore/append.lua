-- Append all events of one command, or nothing.
-- KEYS: 1 stream, 2 due zset, 3 due payload hash, 4 token hash, 5 idempotency key,
--       6 lobby hash, 7 wake list, 8 the shard's feed (game id + new version per append,
--       read by every API process's live-feed hub; capped, auto ids: it is not a game stream),
--       9-16 the lobby indexes (sorted sets by created_at): all, all:<variant>, open, open:<variant>,
--       running, running:<variant>, finished, finished:<variant>,
--       17 the game's compact form (a compacted game takes no more events), 18 its idempotency index
-- ARGV: 1 expected version, 2 event count, 3 has idempotency record (0/1), 4 record,
--       5 record ttl (s), 6 game id, 7 lobby summary ("" = none), 8 follow-up count,
--       9 token count, 10 revoke count, then the events, the follow-ups as
--       (job id, due ms, payload) triples, the tokens as (hash, record) pairs, the revoked hashes,
--       then the listing: "1" status prev-status ("" = a new game) created-at, or "0".
local expected = tonumber(ARGV[1])
local n_events = tonumber(ARGV[2])
if ARGV[3] == "1" then
  local prior = redis.call("GET", KEYS[5])
  if prior then
    local last = redis.call("XREVRANGE", KEYS[1], "+", "-", "COUNT", 1)
    local v = 0
    if #last > 0 then v = tonumber(string.match(last[1][1], "^(%d+)")) end
    return {"duplicate", v, prior}
  end
end
if redis.call("EXISTS", KEYS[17]) == 1 then
  return {"conflict", tonumber(redis.call("HGET", KEYS[17], "v"))}
end
local last = redis.call("XREVRANGE", KEYS[1], "+", "-", "COUNT", 1)
local version = 0
if #last > 0 then version = tonumber(string.match(last[1][1], "^(%d+)")) end
if version ~= expected then
  return {"conflict", version}
end
local i = 11
for k = 1, n_events do
  version = version + 1
  redis.call("XADD", KEYS[1], version .. "-0", "e", ARGV[i])
  i = i + 1
end
if n_events > 0 then
  redis.call("XADD", KEYS[8], "MAXLEN", "~", 10000, "*", "g", ARGV[6], "v", version)
end
local n_follow = tonumber(ARGV[8])
for k = 1, n_follow do
  local added = redis.call("ZADD", KEYS[2], "NX", ARGV[i + 1], ARGV[i])
  if added == 1 then redis.call("HSET", KEYS[3], ARGV[i], ARGV[i + 2]) end
  i = i + 3
end
if n_follow > 0 then
  redis.call("LPUSH", KEYS[7], "1")
  redis.call("LTRIM", KEYS[7], 0, 0)
end
for k = 1, tonumber(ARGV[9]) do
  redis.call("HSET", KEYS[4], ARGV[i], ARGV[i + 1])
  i = i + 2
end
for k = 1, tonumber(ARGV[10]) do
  redis.call("HDEL", KEYS[4], ARGV[i])
  i = i + 1
end
if ARGV[i] == "1" then
  local status, prev, score = ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  local at = {open = 11, running = 13, finished = 15}
  if prev == "" then
    redis.call("ZADD", KEYS[9], score, ARGV[6])
    redis.call("ZADD", KEYS[10], score, ARGV[6])
  end
  if prev ~= status then
    if at[prev] then
      redis.call("ZREM", KEYS[at[prev]], ARGV[6])
      redis.call("ZREM", KEYS[at[prev] + 1], ARGV[6])
    end
    redis.call("ZADD", KEYS[at[status]], score, ARGV[6])
    redis.call("ZADD", KEYS[at[status] + 1], score, ARGV[6])
  end
end
if ARGV[3] == "1" then
  local ttl = tonumber(ARGV[5])
  redis.call("SET", KEYS[5], ARGV[4], "EX", ttl)
  redis.call("SADD", KEYS[18], KEYS[5])
  if redis.call("TTL", KEYS[18]) < ttl then redis.call("EXPIRE", KEYS[18], ttl) end
end
if ARGV[7] ~= "" then
  redis.call("HSET", KEYS[6], ARGV[6], ARGV[7])
end
return {"ok", version}
