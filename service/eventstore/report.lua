-- Keep a finished game's verify report, only while the game exists (its stream or its compact
-- form): a report computed while the game was being evicted never outlives it.
-- KEYS: 1 stream, 2 compact form, 3 report
-- ARGV: 1 the report
if redis.call("EXISTS", KEYS[1]) == 0 and redis.call("EXISTS", KEYS[2]) == 0 then
  return 0
end
redis.call("SET", KEYS[3], ARGV[1])
return 1
