-- Quick play's table for a scope and variant, replaced only if it is still the one the caller saw.
-- KEYS: the pointer; ARGV: old ("" for none), new, ttl_ms. Returns the current value after.
local cur = redis.call("GET", KEYS[1]) or ""
if cur == ARGV[1] then
  redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3])
  return ARGV[2]
end
return cur
