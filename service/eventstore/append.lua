-- Append all events of one command, or nothing.
-- KEYS and the head of ARGV are named below, one per line, in the order
-- service/eventstore/append_args.py builds them (AppendKeys, AppendHead; tests/contract/test_append_args.py
-- checks that the two agree). Every key is under the game's shard tag: one hash slot.
local stream = KEYS[1]
local due = KEYS[2]
local due_payloads = KEYS[3]
local tokens = KEYS[4]
local idem = KEYS[5]
local lobby = KEYS[6]
local wake = KEYS[7]
local feed = KEYS[8]
local lobby_all = KEYS[9]
local lobby_all_variant = KEYS[10]
local lobby_open = KEYS[11]
local lobby_open_variant = KEYS[12]
local lobby_running = KEYS[13]
local lobby_running_variant = KEYS[14]
local lobby_finished = KEYS[15]
local lobby_finished_variant = KEYS[16]
local compact = KEYS[17]
local idem_index = KEYS[18]
local inflight = KEYS[19]
local wake_at = KEYS[20]
local expected_version = tonumber(ARGV[1])
local event_count = tonumber(ARGV[2])
local has_idem = ARGV[3]
local idem_record = ARGV[4]
local idem_ttl_s = tonumber(ARGV[5])
local game_id = ARGV[6]
local lobby_row = ARGV[7]
local followup_count = tonumber(ARGV[8])
local token_count = tonumber(ARGV[9])
local revoke_count = tonumber(ARGV[10])
local cancel_count = tonumber(ARGV[11])
-- then, from ARGV[12] on: the events, the follow-ups as (job id, due ms, payload) triples, the
-- tokens as (hash, record) pairs, the revoked hashes, the cancelled job ids (due work this append
-- closed: a turn's timer; one already claimed is running and keeps its lease), then the listing:
-- "1" status prev-status ("" = a new game) created-at, or "0".
-- A new follow-up pushes the shard's wake-up only when it is due before the dispatcher's next
-- planned look at the shard (wake_at; none set: always).
-- The feed is the shard's append notifications (game id + new version per append, read by every API
-- process's live-feed hub; capped, auto ids: it is not a game stream); the lobby indexes are sorted
-- sets by created_at; a compacted game (its compact form exists) takes no more events.
if has_idem == "1" then
  local prior = redis.call("GET", idem)
  if prior then
    local last = redis.call("XREVRANGE", stream, "+", "-", "COUNT", 1)
    local v = 0
    if #last > 0 then v = tonumber(string.match(last[1][1], "^(%d+)")) end
    return {"duplicate", v, prior}
  end
end
if redis.call("EXISTS", compact) == 1 then
  return {"conflict", tonumber(redis.call("HGET", compact, "v"))}
end
local last = redis.call("XREVRANGE", stream, "+", "-", "COUNT", 1)
local version = 0
if #last > 0 then version = tonumber(string.match(last[1][1], "^(%d+)")) end
if version ~= expected_version then
  return {"conflict", version}
end
local i = 12
for k = 1, event_count do
  version = version + 1
  redis.call("XADD", stream, version .. "-0", "e", ARGV[i])
  i = i + 1
end
if event_count > 0 then
  redis.call("XADD", feed, "MAXLEN", "~", 10000, "*", "g", game_id, "v", version)
end
local soonest = nil
for k = 1, followup_count do
  local added = redis.call("ZADD", due, "NX", ARGV[i + 1], ARGV[i])
  if added == 1 then
    redis.call("HSET", due_payloads, ARGV[i], ARGV[i + 2])
    local at = tonumber(ARGV[i + 1])
    if soonest == nil or at < soonest then soonest = at end
  end
  i = i + 3
end
if soonest ~= nil then
  local planned = tonumber(redis.call("GET", wake_at) or "")
  if planned == nil or soonest < planned then
    redis.call("LPUSH", wake, "1")
    redis.call("LTRIM", wake, 0, 0)
  end
end
for k = 1, token_count do
  redis.call("HSET", tokens, ARGV[i], ARGV[i + 1])
  i = i + 2
end
for k = 1, revoke_count do
  redis.call("HDEL", tokens, ARGV[i])
  i = i + 1
end
for k = 1, cancel_count do
  if redis.call("ZREM", due, ARGV[i]) == 1 and not redis.call("ZSCORE", inflight, ARGV[i]) then
    redis.call("HDEL", due_payloads, ARGV[i])
  end
  i = i + 1
end
if ARGV[i] == "1" then
  local status, prev, score = ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  local by_status = {open = {lobby_open, lobby_open_variant}, running = {lobby_running, lobby_running_variant},
                     finished = {lobby_finished, lobby_finished_variant}}
  if prev == "" then
    redis.call("ZADD", lobby_all, score, game_id)
    redis.call("ZADD", lobby_all_variant, score, game_id)
  end
  if prev ~= status then
    local was, now = by_status[prev], by_status[status]
    if was then
      redis.call("ZREM", was[1], game_id)
      redis.call("ZREM", was[2], game_id)
    end
    redis.call("ZADD", now[1], score, game_id)
    redis.call("ZADD", now[2], score, game_id)
  end
end
if has_idem == "1" then
  redis.call("SET", idem, idem_record, "EX", idem_ttl_s)
  redis.call("SADD", idem_index, idem)
  if redis.call("TTL", idem_index) < idem_ttl_s then redis.call("EXPIRE", idem_index, idem_ttl_s) end
end
if lobby_row ~= "" then
  redis.call("HSET", lobby, game_id, lobby_row)
end
return {"ok", version}
