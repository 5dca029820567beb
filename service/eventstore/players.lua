-- Count one finished game for an owner's players of one variant, once (service/eventstore/players_store.py).
-- KEYS: records (hash ref -> record), board (zset ref -> score), counted (zset game -> time)
-- ARGV: game_id, at, keep_games, n, then n x (ref, expected record or "", new record, score)
local records, board, counted = KEYS[1], KEYS[2], KEYS[3]
local game_id, at, keep, n = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
if redis.call("ZSCORE", counted, game_id) then return "duplicate" end
for i = 0, n - 1 do
  local base = 5 + i * 4
  local cur = redis.call("HGET", records, ARGV[base]) or ""
  if cur ~= ARGV[base + 1] then return "conflict" end
end
for i = 0, n - 1 do
  local base = 5 + i * 4
  redis.call("HSET", records, ARGV[base], ARGV[base + 2])
  redis.call("ZADD", board, ARGV[base + 3], ARGV[base])
end
redis.call("ZADD", counted, at, game_id)
redis.call("ZREMRANGEBYRANK", counted, 0, -(keep + 1))
return "ok"
