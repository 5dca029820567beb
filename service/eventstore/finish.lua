-- A follow-up is done: release its lease; drop its payload unless the job is due again (an
-- append while it ran may have added the same job id anew, with its payload).
-- KEYS: 1 due zset, 2 in-flight zset, 3 payload hash   ARGV: 1 job id
redis.call("ZREM", KEYS[2], ARGV[1])
if not redis.call("ZSCORE", KEYS[1], ARGV[1]) then
  redis.call("HDEL", KEYS[3], ARGV[1])
end
return 1
