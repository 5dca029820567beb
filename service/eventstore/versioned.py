"""Versioned credential records (the house rule "every changeable record is versioned"): an API key, a
remote bot, a webhook endpoint changes by compare-and-set inside one store call, and each change is
appended to the record's audit log in the same call. What the three stores share: the outcome of a
change, the check itself (a record's ``version`` is a field of its JSON; a record without one is at
version 0), the Lua that does it on Redis, and the capped log in memory.

A change names the version it read (``ANY``: none, for a change that needs only the record to exist,
such as a delete) and the record to write (None: delete it). The store answers ``OK`` (the record
now held is the one written), ``CONFLICT`` (another change came first: nothing written, the record
now held is returned) or ``MISSING`` (no such record: nothing written, and nothing is ever written
for an id that is gone, so a delete or a final state is never undone)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson

OK, CONFLICT, MISSING = "ok", "conflict", "missing"
ANY = -1
"""The expected version of a change that needs only the record to exist (a delete without If-Match)."""
LOG_TTL_S = 30 * 24 * 3600
"""How long a deleted record's audit log is kept (its owner may still read it meanwhile)."""


@dataclass(frozen=True, slots=True)
class Changed:
    """A change's outcome and the record the store holds after it (None: there is none)."""

    status: str  # OK | CONFLICT | MISSING
    record: bytes | None = None


def version_of(raw: bytes) -> int:
    """The version a stored record carries (0: a record written before versions)."""
    try:
        rec = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return 0
    return int(rec.get("version") or 0) if isinstance(rec, dict) else 0


def check(current: bytes | None, expect: int) -> str:
    """The memory twin's check, the same as the Lua's: MISSING, CONFLICT or OK."""
    if current is None:
        return MISSING
    if expect != ANY and version_of(current) != expect:
        return CONFLICT
    return OK


def push(log: list[bytes], entry: bytes, keep: int) -> None:
    """Add ``entry`` to a log held newest first, keeping the last ``keep`` (the memory twin's)."""
    log.insert(0, bytes(entry))
    del log[max(1, keep):]


def changed(out: Any) -> Changed:
    """A change script's reply ({status} or {status, record}) as a ``Changed``."""
    status = out[0].decode() if isinstance(out[0], bytes) else str(out[0])
    record = out[1] if len(out) > 1 else None
    return Changed(status, bytes(record) if isinstance(record, (bytes, bytearray)) else
                   record.encode() if isinstance(record, str) else None)


def health_args(values: Mapping[str, int] | None) -> list[Any]:
    """Counters to set with a change (0 removes one), as the script's trailing arguments."""
    return [x for name, value in (values or {}).items() for x in (name, int(value))]


def change_lua(get: str, put: str, drop: str) -> str:
    """The change script of one store: ``get`` reads the current record (false: none), ``put``
    writes ARGV[2], ``drop`` deletes the record. KEYS[1] is the record's audit log (a list, newest
    first); ARGV: expected version (-1: any), the record ('' to delete), the log entry, the log's
    cap, its lifetime once the record is deleted (s), the record's id, then store-specific pairs."""
    return f"""
local function version_of(raw)
  local ok, rec = pcall(cjson.decode, raw)
  if not ok or type(rec) ~= 'table' then return 0 end
  return tonumber(rec['version']) or 0
end
local cur = {get}
if not cur then return {{'missing'}} end
local want = tonumber(ARGV[1])
if want >= 0 and version_of(cur) ~= want then return {{'conflict', cur}} end
if ARGV[2] == '' then
  {drop}
else
  {put}
end
redis.call('LPUSH', KEYS[1], ARGV[3])
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[4]) - 1)
if ARGV[2] == '' then redis.call('EXPIRE', KEYS[1], tonumber(ARGV[5])) end
if ARGV[2] == '' then return {{'ok'}} end
return {{'ok', ARGV[2]}}
"""


def change_args(expect: int, record: bytes | None, entry: bytes, keep: int, ident: str, *more: Any) -> list[Any]:
    return [expect, record if record is not None else b"", entry, max(1, keep), LOG_TTL_S, ident, *more]


LOG_PUSH_LUA = """
redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[2]) - 1)
"""
"""The create scripts' last step: the record's first log entry (KEYS[1] the log; ARGV[1], ARGV[2])."""
